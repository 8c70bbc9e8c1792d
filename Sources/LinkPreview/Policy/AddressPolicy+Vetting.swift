extension AddressPolicy {
    /// Decides whether a DNS answer for `host` may be connected to.
    ///
    /// Refuses an empty answer, and refuses the whole answer when any address is in a blocked range: an answer
    /// that mixes public and blocked addresses (`93.184.216.34` and `10.0.0.1`) is a rebinding or split-horizon
    /// trick or a misconfiguration, and picking its public part would still hand the attacker the choice of
    /// address on the next lookup. A host allowed by a ``AllowRule/host(_:)`` rule may resolve to anything;
    /// addresses allowed by ``AllowRule/network(_:)`` rules count as public. The name rules of ``check(host:)``
    /// apply here too, so a caller that skipped ``check(url:)`` is still covered.
    ///
    /// - Parameters:
    ///   - host: the name that was resolved, as ``check(url:)`` returned it.
    ///   - addresses: the resolver's answer.
    /// - Returns: the addresses to connect to, in the resolver's order without duplicates; or why the answer is
    ///   refused.
    public func vet(host: String, addresses: [IPAddress]) -> Result<[IPAddress], AddressRefusal> {
        let name: String
        switch HostLiteral(host: host) {
        case nil:
            return .failure(AddressRefusal(.invalidHost(host), wording: allowanceWording))
        case .address(let address):
            name = address.description
        case .name(let parsed):
            if let rule = blockedNameRule(for: parsed) {
                return .failure(AddressRefusal(.blockedHostName(parsed, rule: rule), wording: allowanceWording))
            }
            name = parsed
        }
        var unique: [IPAddress] = []
        var seen: Set<IPAddress> = []
        for address in addresses where seen.insert(address).inserted {
            unique.append(address)
        }
        guard !unique.isEmpty else {
            return .failure(AddressRefusal(.noAddresses(host: name), wording: allowanceWording))
        }
        if allowList.contains(where: { $0.allows(name: name) }) { return .success(unique) }
        let blocked = unique.lazy.compactMap { address in self.blockedRange(for: address).map { (address, $0) } }
        guard let (address, range) = blocked.first else { return .success(unique) }
        if blocked.count == unique.count {
            return .failure(AddressRefusal(.blockedAddress(address, rangeName: range.name), wording: allowanceWording))
        }
        return .failure(
            AddressRefusal(.mixedAnswer(host: name, blocked: address, rangeName: range.name), wording: allowanceWording)
        )
    }
}

import Foundation
import LinkPreview

/// The address a request came from, for the per-address rate limit and sign-in throttle: the
/// connection's peer, or, when the peer is a proxy the operator trusts (`--trusted-proxy`), the
/// address that proxy says it was forwarding for.
///
/// Only `X-Forwarded-For` is read, as nginx, HAProxy, Caddy, Traefik and cloud load balancers all
/// write it; `Forwarded` (RFC 7239) is not, so a client cannot pick its identity by sending one that
/// a proxy passes through untouched. The list is read from its right end, where the nearest proxy
/// wrote: every address that is itself a trusted proxy is stepped over, and the first one that is
/// not is the client. A client may write anything at the list's left end, but never reaches past
/// the entries the trusted proxies appended after it.
enum ClientAddress {
    /// The client's address in canonical text (`192.0.2.7`, `2001:db8::1`; an IPv4-mapped peer as its
    /// IPv4 address), or `nil` without a peer (a Unix socket).
    ///
    /// - Parameters:
    ///   - peer: The connection's peer address as NIO writes it.
    ///   - forwardedFor: Every `X-Forwarded-For` field value, in the order they came.
    ///   - trustedProxies: The networks whose connections may say whom they forward for; empty by
    ///     default, when the header is ignored.
    static func resolve(peer: String?, forwardedFor: [String], trustedProxies: [IPNetwork]) -> String? {
        guard let peer else { return nil }
        guard var nearest = IPAddress(peer).map(unmapped) else { return peer }
        guard isTrusted(nearest, by: trustedProxies) else { return nearest.description }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }
        for hop in hops.reversed() {
            // A hop the proxy could not name (`unknown`, an obfuscated `_hidden`): the proxy that
            // wrote it is the nearest thing to a client that can be told apart.
            guard let address = address(in: hop) else { break }
            nearest = address
            guard isTrusted(address, by: trustedProxies) else { break }
        }
        return nearest.description
    }

    /// The key the per-address limits count `address` under: an IPv4 address itself (also written
    /// IPv4-mapped or behind the NAT64 prefix), an IPv6 address by its /64 (`2001:db8:1:2::/64`). A
    /// single IPv6 host is usually handed a whole /64 and may pick any address in it, so counting each
    /// /128 apart would give one client 2⁶⁴ allowances.
    static func limitKey(for address: String) -> String {
        switch IPAddress(address).map(unmapped).map(untranslated) {
        case .v6(let high, _): "\(IPAddress.v6(high: high, low: 0))/64"
        case .v4(let bits): IPAddress.v4(bits).description
        case nil: address
        }
    }

    /// One entry of the list: an address, with or without a port (`192.0.2.7:4711`, `[2001:db8::1]:4711`).
    static func address(in hop: Substring) -> IPAddress? {
        var text = hop.trimmingCharacters(in: .whitespaces)[...]
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            text = text[text.index(after: text.startIndex)..<close]
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            text = text[..<colon]
        }
        return IPAddress(text).map(unmapped)
    }

    private static func isTrusted(_ address: IPAddress, by networks: [IPNetwork]) -> Bool {
        networks.contains { $0.contains(address) }
    }

    /// `64:ff9b::a.b.c.d` (the well-known NAT64 prefix, RFC 6052) as `a.b.c.d`: behind a translator
    /// every IPv4 client has such an address, and all of them share its /64.
    private static func untranslated(_ address: IPAddress) -> IPAddress {
        guard case .v6(let high, let low) = address, high == 0x0064_ff9b_0000_0000, low >> 32 == 0 else {
            return address
        }
        return .v4(UInt32(truncatingIfNeeded: low))
    }

    /// `::ffff:a.b.c.d` as `a.b.c.d`, so an IPv4 proxy list matches a dual-stack listener's peers.
    private static func unmapped(_ address: IPAddress) -> IPAddress {
        address.unmappedIPv4 ?? address
    }
}

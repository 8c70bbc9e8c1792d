import Synchronization

/// The addresses the policy vetted for each host and port while a fetch to it is under way.
///
/// ``VettingProxy`` connects only to addresses found here, so the address a connection reaches is
/// always one the policy checked: there is no second resolution and no DNS-rebinding window.
final class PinTable: Sendable {
    /// A host and port, as a `CONNECT` request names them.
    struct Target: Hashable, Sendable, CustomStringConvertible {
        var host: String
        var port: Int

        init(host: String, port: Int) {
            self.host = host.lowercased()
            self.port = port
        }

        var description: String { "\(bracketedHost):\(port)" }

        /// The host, an IPv6 literal in brackets.
        var bracketedHost: String { host.contains(":") ? "[\(host)]" : host }

        /// The `Host` header for this target, the port left out when it is the scheme's default.
        func hostHeader(defaultPort: Int) -> String {
            port == defaultPort ? bracketedHost : description
        }
    }

    /// Why the proxy could not connect to a pinned target, kept for the fetcher's error message.
    enum ConnectFailure: Sendable, Hashable {
        case timedOut
        case refused(String)
    }

    private struct Pin {
        var addresses: [IPAddress]
        var holders: Int
        var lastFailure: ConnectFailure?
    }

    private let pins = Mutex<[Target: Pin]>([:])

    /// Pins `addresses` for `target` until the matching ``unpin(_:)``. Pins of one target by
    /// concurrent fetches add up (every address in them was vetted).
    func pin(_ target: Target, to addresses: [IPAddress]) {
        pins.withLock { pins in
            if var pin = pins[target] {
                for address in addresses where !pin.addresses.contains(address) { pin.addresses.append(address) }
                pin.holders += 1
                pin.lastFailure = nil
                pins[target] = pin
            } else {
                pins[target] = Pin(addresses: addresses, holders: 1)
            }
        }
    }

    /// Ends one fetch's pin.
    func unpin(_ target: Target) {
        pins.withLock { pins in
            guard var pin = pins[target] else { return }
            pin.holders -= 1
            pins[target] = pin.holders > 0 ? pin : nil
        }
    }

    /// The vetted addresses of `target`, or nil when no fetch to it is under way.
    func addresses(for target: Target) -> [IPAddress]? {
        pins.withLock { $0[target]?.addresses }
    }

    func recordFailure(_ failure: ConnectFailure, for target: Target) {
        pins.withLock { pins in pins[target]?.lastFailure = failure }
    }

    func lastFailure(for target: Target) -> ConnectFailure? {
        pins.withLock { $0[target]?.lastFailure }
    }

    /// How many targets are pinned (for tests: every fetch unpins).
    var count: Int { pins.withLock { $0.count } }
}

/// What ``AddressPolicy/check(url:)`` found the URL's host to be, once it passed.
public enum HostCheck: Sendable, Hashable {
    /// The host is an IP address literal (in any spelling, e.g. `http://0x7f.1/`), already vetted: connect to
    /// this address, without DNS.
    case literal(IPAddress)
    /// The host is a name (lowercased, no trailing dot) that passed the name rules: resolve it, pass the answer
    /// to ``AddressPolicy/vet(host:addresses:)``, and connect only to the addresses that returns.
    case name(String)
}

import LinkPreviewCore

/// A URL host read the way browsers read it: an IP address, however it was spelled, or a normalised name.
///
/// The point is to see every spelling of an address that some layer of a fetcher would connect to. The rules
/// are the WHATWG URL Standard's host parser for special schemes (what browsers do, and a superset of what curl
/// and `getaddrinfo`'s `inet_aton` accept), made stricter where they are loose:
///
/// - `[…]` (or a host that contains `:`, which is how `URL.host` hands back a bracketed one) is an IPv6 literal,
///   parsed strictly by ``IPAddress/init(_:)``; zone ids (`[fe80::1%25eth0]`) are refused.
/// - Otherwise the host is percent-decoded (`%31%32%37.0.0.1` is `127.0.0.1`), and must then be ASCII: IDNA is
///   not applied here, so a non-ASCII name must arrive punycoded (`xn--…`, as Foundation's `URL` writes it) or it
///   is refused. Letters are lowercased.
/// - A host whose last label is a number (`0`, `127.1`, `2130706433`, `0x7f.1`, `0177.0.0.1`, `127.0.0.1.`) is
///   an IPv4 address in the WHATWG/`inet_aton` sense: one to four parts, each decimal, octal (leading `0`) or hex
///   (`0x`), the last part filling the remaining bytes. If it does not parse (`1.2.3.4.5`, `256.1.1.1`,
///   `example.123`), the host is refused, never treated as a name.
/// - Anything else is a name: one trailing dot removed, labels of 1–63 characters from `a-z`, `0-9`, `-` and `_`,
///   253 characters at most. Everything else (empty labels, `*`, `%`, controls, spaces…) is refused.
///
/// ```swift
/// HostLiteral(host: "0x7f.1")          // .address(127.0.0.1)
/// HostLiteral(host: "[::ffff:7f00:1]") // .address(::ffff:127.0.0.1)
/// HostLiteral(host: "Example.COM.")    // .name("example.com")
/// HostLiteral(host: "1.2.3.4.5")       // nil
/// ```
public enum HostLiteral: Sendable, Hashable {
    /// The host is an IP address literal in one of its spellings.
    case address(IPAddress)
    /// The host is a name, lowercased, without a trailing dot.
    case name(String)

    /// Interprets a URL host; `nil` when it is neither a valid address spelling nor a valid name.
    ///
    /// - Parameter host: the host as the URL carries it, with or without IPv6 brackets, possibly percent-encoded.
    public init?(host: String) {
        var bytes = Array(host.utf8)[...]
        if bytes.first == UInt8(ascii: "[") {
            guard bytes.count > 2, bytes.last == UInt8(ascii: "]") else { return nil }
            bytes = bytes.dropFirst().dropLast()
            guard let (high, low) = IPAddress.parseIPv6(bytes) else { return nil }
            self = .address(.v6(high: high, low: low))
            return
        }
        if bytes.contains(UInt8(ascii: ":")) {
            guard let (high, low) = IPAddress.parseIPv6(bytes) else { return nil }
            self = .address(.v6(high: high, low: low))
            return
        }
        guard let decoded = ASCII.percentDecoded(bytes), !decoded.isEmpty,
            decoded.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { return nil }
        let lowered = decoded.map(ASCII.lowercased)[...]
        switch IPv4Host.read(lowered) {
        case .address(let value):
            self = .address(.v4(value))
            return
        case .invalid: return nil
        case .name: break
        }
        guard let name = HostLiteral.validatedName(lowered) else { return nil }
        self = .name(name)
    }

    /// A DNS name: one trailing dot removed, labels of 1–63 of `a-z0-9-_`, 253 characters at most.
    private static func validatedName(_ bytes: ArraySlice<UInt8>) -> String? {
        var name = bytes
        if name.last == UInt8(ascii: ".") { name = name.dropLast() }
        guard !name.isEmpty, name.count <= 253 else { return nil }
        var labelLength = 0
        for byte in name {
            if byte == UInt8(ascii: ".") {
                guard labelLength > 0 else { return nil }
                labelLength = 0
            } else {
                guard isNameByte(byte), labelLength < 63 else { return nil }
                labelLength += 1
            }
        }
        guard labelLength > 0 else { return nil }
        return String(decoding: name, as: UTF8.self)
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"),
            UInt8(ascii: "_"):
            true
        default:
            false
        }
    }
}

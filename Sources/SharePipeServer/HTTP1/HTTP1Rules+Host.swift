import NIOHTTP1
import SharePipeProtocol

extension HTTP1Rules {
    /// Why a request's `Host` lines cannot be served, if they cannot (RFC 9112 §3.2): an HTTP/1.1
    /// request must carry exactly one `Host`, an HTTP/1.0 request at most one, and its value must be a
    /// host with an optional port. Hummingbird's codec takes the first `Host` and drops the rest, so
    /// without this a request naming two hosts would be served as if it named the first.
    static func hostRefusal(of head: HTTPRequestHead) -> ProblemDetails? {
        let hosts = head.headers["Host"]
        if hosts.count > 1 {
            return .malformedRequest(reason: "\(hosts.count) Host fields, where one names the site asked")
        }
        guard let host = hosts.first else {
            guard head.version != .http1_0 else { return nil }
            return .malformedRequest(reason: "no Host field, which every HTTP/1.1 request must send")
        }
        guard isValidHost(host) else {
            return .malformedRequest(reason: "a Host field that is not a host name or address with an optional port")
        }
        return nil
    }

    /// Whether `value` is a `Host` field's value as RFC 9110 §7.2 writes it: `uri-host [ ":" port ]`,
    /// where the host is a bracketed IP literal or a registered name (letters, digits, `-._~`,
    /// percent-escapes and sub-delimiters), and may be empty.
    static func isValidHost(_ value: String) -> Bool {
        var bytes = Substring(value).utf8[...]
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let literal = bytes[bytes.index(after: bytes.startIndex)..<close]
            guard !literal.isEmpty, literal.allSatisfy(isIPLiteralByte) else { return false }
            bytes = bytes[bytes.index(after: close)...]
        } else {
            let end = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.endIndex
            guard bytes[..<end].allSatisfy(isRegisteredNameByte) else { return false }
            bytes = bytes[end...]
        }
        guard let colon = bytes.first else { return true }
        return colon == UInt8(ascii: ":") && bytes.dropFirst().allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    /// Letters, digits, `-._~`, `%` and the sub-delimiters `!$&'()*+,;=` (RFC 3986 `reg-name`).
    private static func isRegisteredNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "%"): true
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
            UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
            UInt8(ascii: "="):
            true
        default: false
        }
    }

    /// What an `IP-literal` holds: an IPv6 address (hex digits, `:` and a dotted IPv4 tail) or an
    /// `IPvFuture` (`v`, hex, `.`, then unreserved and sub-delimiters).
    private static func isIPLiteralByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: ":") || isRegisteredNameByte(byte)
    }
}

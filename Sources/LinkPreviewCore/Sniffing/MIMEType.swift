/// A MIME type's essence (`type/subtype`, lowercased), parsed as the WHATWG MIME Sniffing standard
/// parses one; parameters such as `charset` are not kept.
///
/// ```swift
/// MIMEType.extract(fromContentType: "image/png, text/html; charset=utf-8")?.essence   // "text/html"
/// MIMEType(parsing: "Text/HTML ; charset=UTF-8")?.essence                           // "text/html"
/// ```
public struct MIMEType: Sendable, Hashable, CustomStringConvertible {
    /// The type, lowercased, e.g. `image`.
    public var type: String
    /// The subtype, lowercased, e.g. `svg+xml`.
    public var subtype: String

    /// `type/subtype`, e.g. `image/svg+xml`.
    public var essence: String { "\(type)/\(subtype)" }

    /// The essence.
    public var description: String { essence }

    /// Parses one MIME type (“parse a MIME type”): a token, `/`, a token, then parameters after `;`,
    /// which are ignored.
    ///
    /// - Parameter text: One MIME type such as `text/html; charset=utf-8`; surrounding HTTP whitespace is
    ///   allowed.
    /// - Returns: nil when the type or subtype is empty or holds characters outside the HTTP token set.
    public init?(parsing text: some StringProtocol) {
        let trimmed = Self.trimmingHTTPWhitespace(Array(text.utf8)[...])
        guard let slash = trimmed.firstIndex(of: 0x2F) else { return nil }
        let type = trimmed[..<slash]
        let rest = trimmed[(slash + 1)...]
        let subtype = Self.trimmingHTTPWhitespace(rest[..<(rest.firstIndex(of: 0x3B) ?? rest.endIndex)])
        guard !type.isEmpty, !subtype.isEmpty, type.allSatisfy(Self.isTokenByte), subtype.allSatisfy(Self.isTokenByte)
        else { return nil }
        self.type = String(decoding: type.map(ASCII.lowercased), as: UTF8.self)
        self.subtype = String(decoding: subtype.map(ASCII.lowercased), as: UTF8.self)
    }

    /// The MIME type a `Content-Type` header value stands for, as Fetch's “extract a MIME type” decides:
    /// the value is split at commas outside quoted strings, and the last piece that parses and is not
    /// `*/*` wins.
    ///
    /// - Parameter headerValue: The `Content-Type` header value (several headers joined with `, `), or
    ///   nil when there was none.
    /// - Returns: The winning MIME type, or nil when there is none.
    public static func extract(fromContentType headerValue: String?) -> MIMEType? {
        guard let headerValue else { return nil }
        var result: MIMEType?
        for value in splitHeaderValues(headerValue) {
            guard let parsed = MIMEType(parsing: value), parsed.essence != "*/*" else { continue }
            result = parsed
        }
        return result
    }

    /// A header value split at commas that are not inside a quoted string (“get, decode, and split”).
    static func splitHeaderValues(_ headerValue: String) -> [Substring] {
        HTTPHeaderValue.split(headerValue[...], at: ",")
    }

    /// Whether the type is one that says nothing about the content, so the bytes must be looked at:
    /// `text/plain`, `application/octet-stream`, `unknown/unknown`, `application/unknown`, `*/*`.
    var isUnknown: Bool {
        switch essence {
        case "text/plain", "application/octet-stream", "unknown/unknown", "application/unknown", "*/*": true
        default: false
        }
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        ASCII.isAlphanumeric(byte) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }

    private static func trimmingHTTPWhitespace(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var bytes = bytes
        while let first = bytes.first, isHTTPWhitespace(first) { bytes = bytes.dropFirst() }
        while let last = bytes.last, isHTTPWhitespace(last) { bytes = bytes.dropLast() }
        return bytes
    }

    private static func isHTTPWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}

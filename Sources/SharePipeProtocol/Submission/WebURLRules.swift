package import Foundation
import LinkPreviewCore

/// The rules every URL in a share must meet: absolute `http` or `https`, a host (one that ends in a
/// number must spell an IPv4 address, one in brackets an IPv6 address), a port in
/// 1…65535 if one is given, no user name or password, no whitespace or control characters, and
/// at most a limit of bytes as stored. Other characters outside RFC 3986 (an IDN host, accented
/// letters in a path) are accepted and encoded as a browser would, keeping the escapes already there.
package enum WebURLRules {
    /// Checks a URL string.
    /// - Parameters:
    ///   - string: The URL as sent; surrounding whitespace is ignored.
    ///   - field: How to name the field in a message, such as "`url`".
    ///   - maxLength: The most UTF-8 bytes of the stored URL.
    /// - Returns: The URL, or what is wrong with it as a sentence for a field error.
    package static func check(_ string: String, field: String, maxLength: Int) -> Result<URL, FieldProblem> {
        let trimmed = string.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else {
            return .failure(FieldProblem("\(field) is empty; send an absolute http or https URL."))
        }
        if trimmed.unicodeScalars.contains(where: {
            $0.properties.isWhitespace || $0.properties.generalCategory == .control
        }) {
            return .failure(FieldProblem("\(field) contains spaces or control characters; percent-encode them."))
        }
        guard let url = parse(trimmed) else {
            return .failure(FieldProblem("\(field) is not a URL; send an absolute http or https URL."))
        }
        return check(url, field: field, maxLength: maxLength)
    }

    /// Reads a URL string: as sent when it is a valid URL as it stands; otherwise with what needs
    /// percent-encoding (`é`, `€`, `|`) encoded as a browser encodes it and the escapes already there
    /// kept (``URLResolver/parseAbsolute(_:maxLength:)``), where `URL(string:)` would encode the `%` of
    /// every escape again (`%E2%82%AC` → `%25E2%2582%25AC`) as soon as one character needs encoding.
    /// Foundation's own reading is the last resort, so a check can still say what is wrong.
    package static func parse(_ text: String) -> URL? {
        URL(string: text, encodingInvalidCharacters: false)
            ?? URLResolver.parseAbsolute(text, maxLength: .max)
            ?? URL(string: text)
    }

    /// Checks a parsed URL; see ``check(_:field:maxLength:)-(String,_,_)``.
    package static func check(_ url: URL, field: String, maxLength: Int) -> Result<URL, FieldProblem> {
        guard let scheme = url.scheme?.lowercased() else {
            return .failure(FieldProblem("\(field) is not absolute; send an absolute http or https URL."))
        }
        guard scheme == "http" || scheme == "https" else {
            return .failure(FieldProblem("\(field) must use http or https, not `\(scheme.prefix(32))`."))
        }
        guard let host = url.host(percentEncoded: true), !host.isEmpty else {
            return .failure(FieldProblem("\(field) has no host; send a URL such as https://example.com/page."))
        }
        if let problem = bracketedHostProblem(url, field: field) ?? numericHostProblem(host, field: field)
            ?? punctuatedHostProblem(host, field: field)
        {
            return .failure(problem)
        }
        guard url.user(percentEncoded: true) == nil, url.password(percentEncoded: true) == nil else {
            return .failure(FieldProblem("\(field) must not contain a user name or password."))
        }
        if let port = url.port, !(1...65_535).contains(port) {
            return .failure(FieldProblem("\(field) has port \(port); a port is 1 to 65535."))
        }
        let length = url.absoluteString.utf8.count
        guard length <= maxLength else {
            return .failure(FieldProblem("\(field) is \(length) bytes long; the limit is \(maxLength)."))
        }
        return .success(url)
    }

    /// A host name holds letters, digits, hyphens, underscores and dots (and, for an IDN, letters of
    /// any script): `*`, `!`, `$` and the other punctuation RFC 3986 lets through name no host a
    /// link could reach. (A bracketed IPv6 host is checked on its own.)
    private static func punctuatedHostProblem(_ host: String, field: String) -> FieldProblem? {
        guard !host.hasPrefix("["), !host.contains(":") else { return nil }
        let decoded = host.removingPercentEncoding ?? host
        guard let odd = decoded.unicodeScalars.first(where: { $0.isASCII && !Self.hostNameScalars.contains($0) }) else {
            return nil
        }
        return FieldProblem(
            "\(field) has the host `\(host.prefix(64))`, which holds `\(odd.escaped(asASCII: true))`: "
                + "a host name has letters, digits, hyphens and dots."
        )
    }

    private static let hostNameScalars = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")

    /// A host whose last label is a number is an IPv4 address in one of its spellings (`127.1`,
    /// `0x7f.0.0.1`) or nothing a browser would open (`1.2.3.4.5`, `256.0.0.1`, `example.123`): the
    /// WHATWG URL Standard refuses those, and so do we, rather than store a link no one can follow.
    /// A host written in brackets must be an IPv6 address (``IPv6Host``): Foundation takes any hex
    /// digits and colons there (`[ca8ae::9c22]`, even `[54beafd20f90]`, which it then hands back as a
    /// name), which no browser opens.
    private static func bracketedHostProblem(_ url: URL, field: String) -> FieldProblem? {
        let text = url.absoluteString
        guard let start = text.range(of: "://")?.upperBound else { return nil }
        var authority = text[start...].prefix { !"/?#".contains($0) }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        guard authority.hasPrefix("[") else { return nil }
        guard let close = authority.firstIndex(of: "]"),
            IPv6Host.isAddress(authority[authority.index(after: authority.startIndex)..<close])
        else {
            return FieldProblem(
                "\(field) has the host `\(authority.prefix(64))`, which is in brackets but no IPv6 address; "
                    + "check the address."
            )
        }
        return nil
    }

    /// An IPv6 literal (`[::ffff:93.184.216.34]`, whose host Foundation gives without its brackets)
    /// holds colons, which no name or IPv4 host does, and may end in an IPv4 tail: it is not read so.
    private static func numericHostProblem(_ host: String, field: String) -> FieldProblem? {
        guard !host.contains(":"), IPv4Host.read((host.removingPercentEncoding ?? host).lowercased()) == .invalid else {
            return nil
        }
        return FieldProblem(
            "\(field) has the host `\(host.prefix(64))`, which ends in a number but is no IPv4 address; "
                + "check the address or the name."
        )
    }
}

/// What is wrong with one field, as a sentence; becomes a ``ProblemDetails/FieldError``.
package struct FieldProblem: Error, Hashable {
    package var detail: String

    package init(_ detail: String) {
        self.detail = detail
    }
}

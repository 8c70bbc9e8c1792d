import Foundation

/// No text a client sends may hold the NUL character (U+0000): PostgreSQL refuses it in `text`
/// (a 500 before this rule), and SQLite keeps a string only up to it (a name silently cut short).
/// Share submissions clean control characters out instead (``TextCleaning``); every other JSON body
/// (``JSONRequestBody``) and form post (``WebForm``) is refused with 422 at the member that holds one.
/// A JSON member the server does not read (unknown to it) is not looked at: it is never stored.
///
/// A JSON body is checked as the decoder read it, encoded again (so only what it read, and exactly
/// that), and a form as the bytes were sent: in JSON a NUL can only be the escape `\u0000` (a raw
/// 0x00 byte is refused earlier, as a body that is not UTF-8 JSON), and in a form only `%00` or a raw
/// 0x00 byte.
enum NULCharacterRule {
    static let detail = "Text may not contain the NUL character (U+0000)."

    /// Where `body`, a UTF-8 JSON document, holds a NUL: the JSON pointer of the first string with one
    /// (the whole body, `""`, when it cannot be placed), or `nil` for none.
    static func pointer(inJSON body: Data) -> String? {
        guard containsNULEscape(body) else { return nil }
        let root = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        return root.flatMap { pointer(in: $0, at: "") } ?? ""
    }

    /// The fields of a form post (`application/x-www-form-urlencoded`) holding a NUL in their name or
    /// value, as pointers (`/name`).
    static func pointers(inForm body: String) -> [String] {
        body.split(separator: "&").compactMap { pair in
            guard pair.utf8.contains(0) || pair.range(of: "%00", options: .caseInsensitive) != nil else { return nil }
            let name = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0]
            let readable = String(name).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
            return "/" + (readable.map { $0.replacingOccurrences(of: "\0", with: "") } ?? String(name))
        }
    }

    /// Whether `body` holds `\u0000` as an escape: after an odd number of backslashes (`\\u0000` is
    /// a backslash and the text `u0000`).
    private static func containsNULEscape(_ body: Data) -> Bool {
        let pattern = Array("u0000".utf8)
        return body.withUnsafeBytes { bytes in
            var backslashes = 0
            for index in bytes.indices {
                if bytes[index] == UInt8(ascii: "\\") {
                    backslashes += 1
                    continue
                }
                if backslashes % 2 == 1, index + pattern.count <= bytes.count,
                    bytes[index..<(index + pattern.count)].elementsEqual(pattern, by: { $0 | 0x20 == $1 | 0x20 })
                {
                    return true
                }
                backslashes = 0
            }
            return false
        }
    }

    private static func pointer(in value: Any, at path: String) -> String? {
        switch value {
        case let string as String:
            return string.contains("\0") ? path : nil
        case let object as [String: Any]:
            for key in object.keys.sorted() {
                let escaped = key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
                if key.contains("\0") { return path + "/" + escaped }
                if let found = pointer(in: object[key]!, at: path + "/" + escaped) { return found }
            }
            return nil
        case let array as [Any]:
            for (index, element) in array.enumerated() {
                if let found = pointer(in: element, at: path + "/\(index)") { return found }
            }
            return nil
        default:
            return nil
        }
    }
}

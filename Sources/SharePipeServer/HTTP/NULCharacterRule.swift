import Foundation
import SharePipeProtocol

/// No text a client sends may hold the NUL character (U+0000): PostgreSQL refuses it in `text`
/// (a 500 before this rule), and SQLite keeps a string only up to it (a name silently cut short).
/// Share submissions clean control characters out instead (``TextCleaning``); every other JSON body
/// (``JSONRequestBody``) and form post (``WebForm``) is refused with 422 at the member that holds one.
enum NULCharacterRule {
    static let detail = "Text may not contain the NUL character (U+0000)."

    /// The JSON pointer of the first string in `body` (a JSON document) holding a NUL, or `nil`.
    /// JSON writes NUL only as the escape `\u0000`, so a body without one is not parsed again.
    static func pointer(inJSON body: Data) -> String? {
        guard containsNULEscape(body),
            let root = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed])
        else { return nil }
        return pointer(in: root, at: "")
    }

    /// The names of the form fields (`application/x-www-form-urlencoded`) holding a NUL, as
    /// pointers (`/name`).
    static func pointers(inForm body: String) -> [String] {
        body.split(separator: "&").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ text: Substring) -> String {
                String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(text)
            }
            guard parts.count == 2, decoded(parts[1]).contains("\0") else { return nil }
            return "/" + decoded(parts[0])
        }
    }

    private static func containsNULEscape(_ body: Data) -> Bool {
        let pattern = Array("u0000".utf8)
        return body.withUnsafeBytes { bytes in
            var index = 1
            while index + pattern.count <= bytes.count {
                if bytes[index - 1] == UInt8(ascii: "\\"),
                    bytes[index..<(index + pattern.count)].elementsEqual(pattern, by: { $0 | 0x20 == $1 | 0x20 })
                {
                    return true
                }
                index += 1
            }
            return false
        }
    }

    private static func pointer(in value: Any, at path: String) -> String? {
        switch value {
        case let string as String:
            return string.contains("\0") ? (path.isEmpty ? "/" : path) : nil
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

internal import Foundation

/// Finds an object member named twice in a JSON document (`{"url": "https://a", "url": "http://b"}`).
///
/// RFC 8259 §4 leaves such a document's meaning to the reader, and readers disagree: Foundation keeps
/// the last member, other parsers the first. A proxy or an audit log that reads the first would see
/// another request than the server, so every JSON body is refused with one (400 `malformed-json`),
/// never read either way. Names are compared as the decoders compare them: after their escapes are
/// read (`"url"` and `"\u0075rl"` are one name), as Swift strings.
///
/// ```swift
/// JSONDuplicateMembers.firstPointer(in: Array(#"{"a": {"b": 1, "b": 2}}"#.utf8))   // "/a/b"
/// ```
package enum JSONDuplicateMembers {
    /// The JSON pointer of the first member whose name its object already had, or `nil` when there is
    /// none. Expects well-formed JSON (run it after a parser accepted the bytes); on anything else it
    /// answers `nil` rather than guess.
    package static func firstPointer(in body: some Collection<UInt8>) -> String? {
        var scanner = Scanner(bytes: Array(body))
        return scanner.firstDuplicate()
    }

    /// The 400 for a body with a duplicate member at `pointer`.
    package static func problem(at pointer: String) -> ProblemDetails {
        var problem = ProblemDetails.malformedJSON(
            detail: "The member `\(pointer)` appears more than once in its object; send each member once."
        )
        problem.errors = [.init(pointer: pointer, detail: "This member appears more than once.")]
        return problem
    }

    private struct Scanner {
        /// An open object (the names seen so far, and the name being read) or array (the next index).
        enum Container {
            case object(names: Set<String>, current: String?)
            case array(index: Int)
        }

        let bytes: [UInt8]
        var position = 0
        var stack: [Container] = []

        init(bytes: [UInt8]) {
            self.bytes = bytes
        }

        mutating func firstDuplicate() -> String? {
            while position < bytes.count {
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: "{"):
                    stack.append(.object(names: [], current: nil))
                    position += 1
                case UInt8(ascii: "["):
                    stack.append(.array(index: 0))
                    position += 1
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard stack.popLast() != nil else { return nil }
                    position += 1
                case UInt8(ascii: ","):
                    if case .array(let index) = stack.last { stack[stack.count - 1] = .array(index: index + 1) }
                    position += 1
                case UInt8(ascii: "\""):
                    guard let end = stringEnd(from: position) else { return nil }
                    if case .object(var names, _) = stack.last, isName(after: end) {
                        guard let name = Self.decode(bytes[position..<end]) else { return nil }
                        let (inserted, _) = names.insert(name)
                        stack[stack.count - 1] = .object(names: names, current: name)
                        if !inserted { return pointer() }
                    }
                    position = end
                default:
                    position += 1
                }
            }
            return nil
        }

        /// The index after the closing quote of the string starting at `start`.
        func stringEnd(from start: Int) -> Int? {
            var index = start + 1
            while index < bytes.count {
                switch bytes[index] {
                case UInt8(ascii: "\\"): index += 2
                case UInt8(ascii: "\""): return index + 1
                default: index += 1
                }
            }
            return nil
        }

        /// Whether the string ending before `end` is followed by `:` (so it is a member's name).
        func isName(after end: Int) -> Bool {
            var index = end
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
            return index < bytes.count && bytes[index] == UInt8(ascii: ":")
        }

        /// A string literal (quotes included) as the text it stands for.
        static func decode(_ literal: ArraySlice<UInt8>) -> String? {
            guard literal.contains(UInt8(ascii: "\\")) else {
                return String(decoding: literal.dropFirst().dropLast(), as: UTF8.self)
            }
            return (try? JSONSerialization.jsonObject(with: Data(literal), options: [.fragmentsAllowed])) as? String
        }

        /// The pointer of the member being read.
        func pointer() -> String {
            stack.map { container in
                switch container {
                case .object(_, let current):
                    "/"
                        + (current ?? "").replacingOccurrences(of: "~", with: "~0")
                        .replacingOccurrences(of: "/", with: "~1")
                case .array(let index): "/\(index)"
                }
            }.joined()
        }
    }
}

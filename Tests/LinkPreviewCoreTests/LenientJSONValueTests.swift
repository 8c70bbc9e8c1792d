import Foundation
import LinkPreviewCore
import Testing

/// The values ``LenientJSON`` builds: what it accepts must be exactly what the cleaning pass leaves
/// for a strict JSON parser, read the same way.
struct LenientJSONValueTests {
    static func values(_ text: String, maxDepth: Int = 64) -> [JSONValue] {
        LenientJSON.values(in: text, maxBytes: 1 << 20, maxDepth: maxDepth)
    }

    @Test func buildsObjectsWithTheirMembersInDocumentOrder() throws {
        let values = Self.values(#"{"b": 1, "a": [true, false, null, "x"], "c": {"d": -1.5e2}}"#)
        let object = try #require(values.first?.object)
        #expect(values.count == 1)
        #expect(Array(object.keys) == ["b", "a", "c"])
        #expect(object["a"] == .array([.bool(true), .bool(false), .null, .string("x")]))
        #expect(object["c"]?.object?["d"]?.doubleValue == -150)
        #expect(object["b"]?.doubleValue == 1)
        #expect(object["B"] == nil)
        #expect(object.value(forKeyIgnoringCase: "B")?.doubleValue == 1)
    }

    @Test func aRepeatedKeyKeepsItsLastValueWhereItFirstAppeared() throws {
        let object = try #require(Self.values(#"{"a": 1, "b": 2, "a": 3}"#).first?.object)
        #expect(object.members.map(\.key) == ["a", "b"])
        #expect(object["a"]?.doubleValue == 3)
    }

    @Test func decodesEscapes() {
        #expect(
            Self.values(#"["\u00e9\u00C9 \ud83d\ude00 \/ \n\t\b\f\r \"\\"]"#)
                == [.array([.string("éÉ 😀 / \n\t\u{08}\u{0C}\r \"\\")])]
        )
    }

    /// Foundation's parser rejected the whole script for one such escape; a lone surrogate is more
    /// likely a truncated emoji than a reason to lose the page's metadata.
    @Test func aLoneSurrogateBecomesAReplacementCharacter() {
        #expect(
            Self.values(#"["a\ud83db", "\udc00", "\ud83d\u0041", "\ud83d"]"#)
                == [.array([.string("a\u{FFFD}b"), .string("\u{FFFD}"), .string("\u{FFFD}A"), .string("\u{FFFD}")])]
        )
    }

    /// As Foundation's parser did before.
    @Test func dropsAByteOrderMarkThatOpensAString() {
        #expect(Self.values("[\"\u{FEFF}a\", \"b\u{FEFF}\"]") == [.array([.string("a"), .string("b\u{FEFF}")])])
    }

    @Test(arguments: [
        "[01]", "[1.]", "[.5]", "[+1]", "[-]", "[1e]", "[0x10]", "[1e400]", "[tru]", "[truex]", "[NULL]",
        #"["\x"]"#, #"["\u12G4"]"#, #"{'a': 1}"#, #"{a: 1}"#, #"{"a" 1}"#, #"{"a": }"#, #"{"a":1]"#, "[1}",
        #"["a" "b"]"#, #"{"a": 1 "b": 2}"#, #"[1 "a"]"#, "[,1]", #"{,"a": 1}"#, "[<!-- 1 -->]", "[\u{FEFF}1]",
    ])
    func skipsAValueThatIsNotJSONAndReadsTheNext(invalid: String) {
        let ok = JSONValue.object(JSONObject(uniquing: [.init(key: "ok", value: .bool(true))]))
        #expect(Self.values(invalid + #" {"ok": true}"#) == [ok])
    }

    @Test(arguments: [
        #"{"a": [1, 2,], "b": {"c": 3,},}"#,
        #"[1,, 2, /* x */ ]"#,
        "{\"a\": 1, // note\n \"b\": 2 /* more */}",
        "<!--\n{\"a\": 1}\n-->",
        "//<![CDATA[\n{\"a\": 1};\n//]]>",
        "<![CDATA[{\"a\": [1]}]]>",
        #"{"url": "https://x.example/a//b/*c*/", "t": "a, ]"}"#,
        "{\"t\": \"a\nb\tc\u{01}d\"}",
        "{\"t\": \"a\\\nb\", \"u\": \"\\\"q\\\"\"}",
        #"{"a":1}{"b":2}, [3] ; var x = {"c": 4}"#,
        #"[tr/**/ue, n ull, 1 2, - 3.5, "é", "\u00e9\ud83d\ude00", {}, [], [[]], 0, 1.5E3, 2e-2]"#,
        #"{"a": [1, 2"#,
        #"[1] {"a": 01} [2]"#,
        #"{"a": "b", "a": "c", "A": "d"}"#,
        "}}]]{{[[",
    ])
    func agreesWithTheCleanedTextReadByFoundation(script: String) {
        let expected = LenientJSON.cleanedValues(in: script, maxBytes: 1 << 20, maxDepth: 64).compactMap { text in
            (try? JSONSerialization.jsonObject(with: Data(text))).map(Self.canonical)
        }
        #expect(Self.values(script).map(Self.canonical) == expected)
    }

    /// A value's description with object keys sorted, so that Foundation's dictionaries compare.
    static func canonical(_ value: JSONValue) -> String {
        switch value {
        case .string(let string): "s" + string.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: ".")
        case .number: "n\(value.doubleValue ?? .nan)"
        case .bool(let bool): "\(bool)"
        case .null: "null"
        case .array(let elements): "[" + elements.map(canonical).joined(separator: ",") + "]"
        case .object(let object):
            "{"
                + object.members.sorted { $0.key < $1.key }.map {
                    canonical(.string($0.key)) + ":" + canonical($0.value)
                }
                .joined(separator: ",") + "}"
        }
    }

    static func canonical(_ value: Any) -> String {
        switch value {
        case let string as String: return canonical(JSONValue.string(string))
        case is NSNull: return "null"
        case let array as [Any]: return "[" + array.map(canonical).joined(separator: ",") + "]"
        case let object as [String: Any]:
            return "{"
                + object.sorted { $0.key < $1.key }.map {
                    canonical(JSONValue.string($0.key)) + ":" + canonical($0.value)
                }
                .joined(separator: ",") + "}"
        case let number as NSNumber where String(cString: number.objCType) == "c":  // a boolean
            return "\(number.boolValue)"
        default:
            return "n\(value as? Double ?? .nan)"
        }
    }
}

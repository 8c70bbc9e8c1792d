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
        #expect(object.members.map(\.key) == ["b", "a", "c"])
        #expect(object["a"].map(Self.canonical) == #"[true,false,null,"x"]"#)
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

    /// Keys with escapes or beyond ASCII are not compared byte by byte but as decoded strings.
    @Test func keysCompareAsDecodedStrings() throws {
        let object = try #require(
            Self.values(#"{"h\u0065adline": 1, "\u212A": 2, "Ünï": 3}"#).first?.object
        )
        #expect(object["headline"]?.doubleValue == 1)
        #expect(object.value(forKeyIgnoringCase: "HEADLINE")?.doubleValue == 1)
        // U+212A KELVIN SIGN is canonically equivalent to K.
        #expect(object["K"]?.doubleValue == 2)
        #expect(object.value(forKeyIgnoringCase: "ünï")?.doubleValue == 3)
        #expect(object.count == 3)
    }

    @Test func decodesEscapes() {
        #expect(
            Self.strings(#"["\u00e9\u00C9 \ud83d\ude00 \/ \n\t\b\f\r \"\\"]"#)
                == ["éÉ 😀 / \n\t\u{08}\u{0C}\r \"\\"]
        )
    }

    /// Foundation's parser rejected the whole script for one such escape; a lone surrogate is more
    /// likely a truncated emoji than a reason to lose the page's metadata.
    @Test func aLoneSurrogateBecomesAReplacementCharacter() {
        #expect(
            Self.strings(#"["a\ud83db", "\udc00", "\ud83d\u0041", "\ud83d"]"#)
                == ["a\u{FFFD}b", "\u{FFFD}", "\u{FFFD}A", "\u{FFFD}"]
        )
    }

    /// As Foundation's parser did before.
    @Test func dropsAByteOrderMarkThatOpensAString() {
        #expect(Self.strings("[\"\u{FEFF}a\", \"b\u{FEFF}\"]") == ["a", "b\u{FEFF}"])
    }

    @Test(arguments: [
        "[01]", "[1.]", "[.5]", "[+1]", "[-]", "[1e]", "[0x10]", "[1e400]", "[tru]", "[truex]", "[NULL]",
        #"["\x"]"#, #"["\u12G4"]"#, #"{'a': 1}"#, #"{a: 1}"#, #"{"a" 1}"#, #"{"a": }"#, #"{"a":1]"#, "[1}",
        #"["a" "b"]"#, #"{"a": 1 "b": 2}"#, #"[1 "a"]"#, "[,1]", #"{,"a": 1}"#, "[<!-- 1 -->]", "[\u{FEFF}1]",
    ])
    func skipsAValueThatIsNotJSONAndReadsTheNext(invalid: String) {
        #expect(Self.values(invalid + #" {"ok": true}"#).map(Self.canonical) == [#"{"ok":true}"#])
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

    /// The strings in the first value, an array of strings.
    static func strings(_ text: String) -> [String?]? {
        values(text).first?.array?.map(\.string)
    }

    /// A value as compact JSON with object keys sorted, so that Foundation's dictionaries compare.
    static func canonical(_ value: JSONValue) -> String {
        switch value.kind {
        case .string: canonical(string: value.string ?? "")
        case .number: "\(value.doubleValue ?? .nan)"
        case .bool: "\(value.bool ?? false)"
        case .null: "null"
        case .array: "[" + (value.array ?? []).map(canonical).joined(separator: ",") + "]"
        case .object: "{" + canonicalMembers(value.object.map { Array($0.members) } ?? []) + "}"
        }
    }

    private static func canonicalMembers(_ members: [JSONObject.Member]) -> String {
        let sorted = members.sorted { $0.key < $1.key }
        return sorted.map { canonical(string: $0.key) + ":" + canonical($0.value) }.joined(separator: ",")
    }

    /// A string in quotes, with its characters as written except for `"` and `\\`, and scalars
    /// outside printable ASCII as `\u{…}`, so that every scalar shows.
    static func canonical(string: String) -> String {
        var result = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"", "\\": result += "\\" + String(scalar)
            case " "..."~": result.unicodeScalars.append(scalar)
            default: result += "\\u{\(String(scalar.value, radix: 16))}"
            }
        }
        return result + "\""
    }

    static func canonical(_ value: Any) -> String {
        switch value {
        case let string as String: return canonical(string: string)
        case is NSNull: return "null"
        case let array as [Any]: return "[" + array.map(canonical).joined(separator: ",") + "]"
        case let object as [String: Any]:
            return "{"
                + object.sorted { $0.key < $1.key }.map { canonical(string: $0.key) + ":" + canonical($0.value) }
                .joined(separator: ",") + "}"
        case let number as NSNumber where String(cString: number.objCType) == "c":  // a boolean
            return "\(number.boolValue)"
        default:
            return "\(value as? Double ?? .nan)"
        }
    }
}

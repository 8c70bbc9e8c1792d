import Foundation
import LinkPreviewCore
import Testing

/// The cleaning pass on its own, so that what it forgives is checked whatever the platform's
/// `JSONSerialization` happens to accept (on Linux it allows trailing commas, on Apple platforms not).
struct LenientJSONTests {
    static func cleaned(_ text: String, maxBytes: Int = 1 << 20, maxDepth: Int = 64) -> [String] {
        LenientJSON.cleanedValues(in: text, maxBytes: maxBytes, maxDepth: maxDepth).map {
            String(decoding: $0, as: UTF8.self)
        }
    }

    @Test(arguments: [
        (#"{"a": [1, 2,], "b": {"c": 3,},}"#, #"{"a":[1,2],"b":{"c":3}}"#),
        (#"[1,, 2, /* x */ ]"#, #"[1,2]"#),
        ("{\"a\": 1, // note\n \"b\": 2 /* more */}", #"{"a":1,"b":2}"#),
        ("<!--\n{\"a\": 1}\n-->", #"{"a":1}"#),
        ("//<![CDATA[\n{\"a\": 1};\n//]]>", #"{"a":1}"#),
        ("<![CDATA[{\"a\": [1]}]]>", #"{"a":[1]}"#),
        (#"{"url": "https://x.example/a//b/*c*/", "t": "a, ]"}"#, #"{"url":"https://x.example/a//b/*c*/","t":"a, ]"}"#),
        ("{\"t\": \"a\nb\tc\u{01}d\"}", #"{"t":"a b c d"}"#),
        ("{\"t\": \"a\\\nb\", \"u\": \"\\\"q\\\"\"}", #"{"t":"a b","u":"\"q\""}"#),
    ])
    func producesStrictJSON(input: String, expected: String) throws {
        let values = Self.cleaned(input)
        #expect(values == [expected])
        let data = Data(try #require(values.first).utf8)
        #expect(throws: Never.self) { try JSONSerialization.jsonObject(with: data) }
    }

    @Test func splitsConcatenatedValuesAndDropsTextBetweenThem() {
        #expect(
            Self.cleaned(#"{"a":1}{"b":2}, [3] ; var x = {"c": 4}"#) == [#"{"a":1}"#, #"{"b":2}"#, "[3]", #"{"c":4}"#]
        )
    }

    @Test func dropsCutOffAndTooDeepValues() {
        #expect(Self.cleaned(#"{"a": [1, 2"#).isEmpty)
        #expect(Self.cleaned(#"[[[1]]] [[2]]"#, maxDepth: 2) == ["[[2]]"])
        #expect(Self.cleaned(#"{"a": 1}"#, maxBytes: 7).isEmpty)
    }

    /// Strings are scanned eight bytes at a time: a quote, an escape, a raw control character or a
    /// non-ASCII character ends the fast scan wherever it falls.
    @Test func readsStringsWithSpecialBytesAtEveryOffset() {
        let specials: [(written: String, read: String)] = [
            (#"\""#, #"""#), (#"\\"#, #"\"#), (#"\n"#, "\n"), ("\t", " "), ("\u{E9}", "\u{E9}"), (#"\u00e9"#, "\u{E9}"),
        ]
        for offset in 0..<20 {
            for special in specials {
                let prefix = String(repeating: "x", count: offset)
                let suffix = String(repeating: "y", count: 20 - offset)
                let json = #"{"k": ""# + prefix + special.written + suffix + #"", "l": "end"}"#
                let object = LenientJSON.values(in: json, maxBytes: 1 << 20, maxDepth: 64).first?.object
                #expect(object?["k"]?.string == prefix + special.read + suffix, "\(json)")
                #expect(object?["l"]?.string == "end")
            }
        }
    }
}

import TestSupport
import Testing

@testable import LinkPreviewCore

/// ``TextNormalizer`` reads UTF-8 bytes; these tests hold it to the scalar-level reading it replaced
/// (``ScalarLevelNormalizer``), and its whitespace table to the Unicode property.
struct TextNormalizerTests {
    @Test("What a reader sees: runs collapse, ends trim, controls go, the cap keeps whole characters")
    func examples() {
        #expect(TextNormalizer.clean("  Hello,\n\t world  ", maxLength: 100) == "Hello, world")
        #expect(TextNormalizer.clean("Caf\u{E9}\u{A0}\u{A0}au\u{2003}lait\u{3000}", maxLength: 100) == "Café au lait")
        #expect(TextNormalizer.clean("zero\u{200B}width\u{FEFF}", maxLength: 100) == "zero width")
        #expect(TextNormalizer.clean("C1\u{85}next\u{80}\u{9F}line\u{7F}", maxLength: 100) == "C1 nextline")
        #expect(TextNormalizer.clean("\u{1}\u{1F}bell\u{7}", maxLength: 100) == "bell")
        #expect(TextNormalizer.clean("日本語のタイトル", maxLength: 3) == "日本語")
        #expect(TextNormalizer.clean("ab 😀😀", maxLength: 4) == "ab 😀")
        // A cut never keeps half a character: a flag, a skin tone, a joined family, an accent.
        #expect(TextNormalizer.clean("Go 🇩🇪🇫🇷", maxLength: 6) == "Go 🇩🇪")
        #expect(TextNormalizer.clean("Hi 👋🏽", maxLength: 4) == "Hi")
        #expect(TextNormalizer.clean("Us 👨\u{200D}👩\u{200D}👧", maxLength: 6) == "Us")
        #expect(TextNormalizer.clean("Cafe\u{301}", maxLength: 4) == "Caf")
        // A space is kept only with a scalar after it.
        #expect(TextNormalizer.clean("ab\u{A0}cd", maxLength: 3) == "ab")
        #expect(TextNormalizer.clean(" \u{A0}\u{2028} ", maxLength: 10) == nil)
        #expect(TextNormalizer.clean("", maxLength: 10) == nil)
        #expect(TextNormalizer.clean(nil, maxLength: 10) == nil)
        #expect(TextNormalizer.clean("é", maxLength: 0) == nil)
    }

    @Test("The whitespace table is Unicode's White_Space for every non-ASCII scalar", .cpuHeavy)
    func whitespaceTableMatchesTheProperty() {
        var mismatches: [UInt32] = []
        for value in UInt32(0x80)...0x10_FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if TextNormalizer.isNonASCIIWhitespace(value) != scalar.properties.isWhitespace { mismatches.append(value) }
        }
        #expect(mismatches.isEmpty)
    }

    @Test("Gives what the scalar-level reading cut at whole characters gives, for generated text and caps")
    func matchesTheScalarLevelReading() {
        let pieces = [
            "a", "Z", "0", " ", "  ", "\t", "\n", "\r\n", "\u{B}", "\u{C}", "\u{0}", "\u{1F}", "\u{7F}", "\u{80}",
            "\u{85}",
            "\u{9F}", "\u{A0}", "é", "ß", "\u{301}", "\u{1680}", "\u{180E}", "\u{2000}", "\u{200A}", "\u{200B}",
            "\u{200D}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}", "\u{2060}", "\u{3000}", "\u{FEFF}", "日",
            "😀", "🇺🇸", "𝔘", "\u{10FFFF}", "word", "Title | Site",
        ]
        var generator = SplitMix64(seed: 0x5EED)
        for _ in 0..<5_000 {
            var text = ""
            for _ in 0..<Int(generator.next() % 12) {
                text += pieces[Int(generator.next() % UInt64(pieces.count))]
            }
            let maxLength = Int(generator.next() % 14)
            let expected = ScalarLevelNormalizer.cleanKeepingWholeCharacters(text, maxLength: maxLength)
            let actual = TextNormalizer.clean(text, maxLength: maxLength)
            #expect(actual == expected, "\(text.unicodeScalars.map { String($0.value, radix: 16) }) cap \(maxLength)")
            if actual != expected { return }
        }
    }
}

/// The scalar-by-scalar reading ``TextNormalizer`` had before it read bytes.
private enum ScalarLevelNormalizer {
    static func clean(_ text: String, maxLength: Int) -> String? {
        var result = ""
        var pendingSpace = false
        var count = 0
        for scalar in text.unicodeScalars {
            let isSpace =
                scalar.isASCII
                ? (scalar == " " || (0x09...0x0D).contains(scalar.value))
                : (scalar.properties.isWhitespace || scalar == "\u{200B}" || scalar == "\u{FEFF}")
            if isSpace {
                pendingSpace = !result.isEmpty
                continue
            }
            if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { continue }
            if pendingSpace {
                guard count + 1 < maxLength else { break }
                result.unicodeScalars.append(" ")
                count += 1
                pendingSpace = false
            }
            guard count < maxLength else { break }
            result.unicodeScalars.append(scalar)
            count += 1
        }
        return result.isEmpty ? nil : result
    }

    /// The cleaned text cut, character by character, to the most whole characters that hold at most
    /// `maxLength` scalars, without a space at the end.
    static func cleanKeepingWholeCharacters(_ text: String, maxLength: Int) -> String? {
        guard let full = clean(text, maxLength: .max) else { return nil }
        var result = ""
        var count = 0
        for character in full {
            let scalars = character.unicodeScalars.count
            guard count + scalars <= maxLength else { break }
            result.append(character)
            count += scalars
        }
        while result.last == " " { result.removeLast() }
        return result.isEmpty ? nil : result
    }
}

/// A small deterministic generator, so a failure names the same input every run.
private struct SplitMix64 {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

import Foundation
import Testing

@testable import LinkPreviewCore

/// The UTF-8 searches that replace Foundation's string searches in extraction must answer as
/// Foundation does for literal text, separators with non-ASCII dashes included.
struct UTF8SearchTests {
    static let texts = [
        "", "|", " | ", "How X works | Example News", "A | B | C", " | leading", "trailing | ",
        "a |  | b", "Über – Straße – Köln", "no separator here", "x — y · z", "emoji 🎉 | party 🎉",
    ]
    static let separators = [" | ", " – ", " — ", " · ", "🎉", "xyz"]

    @Test(arguments: texts)
    func componentsMatchFoundation(_ text: String) {
        for separator in Self.separators {
            #expect(
                text.utf8Components(separatedBy: separator).map(String.init) == text.components(separatedBy: separator)
            )
        }
    }

    @Test(arguments: texts)
    func lastRangeMatchesFoundation(_ text: String) {
        for separator in Self.separators {
            #expect(text.lastUTF8Range(of: separator) == text.range(of: separator, options: .backwards))
        }
    }

    @Test(arguments: texts)
    func containsMatchesFoundation(_ text: String) {
        for needle in Self.separators + ["works", "Straße", "a", ""] where !needle.isEmpty {
            #expect(text.containsUTF8(needle) == text.contains(needle), "\(text) contains \(needle)")
        }
        #expect(text.containsUTF8(""))
    }
}

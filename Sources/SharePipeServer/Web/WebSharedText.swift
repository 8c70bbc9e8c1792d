import Foundation

/// What another app shared through the Web Share Target, as the share form takes it: Android's
/// apps often put the link inside `text` ("Look at this https://…"), so the link is `url`, else the
/// first `http(s)` address in the text; the rest of the text is the note; `title` stays the title.
struct WebSharedText: Equatable {
    var link: String?
    var note: String?
    var title: String?

    init(title: String?, text: String?, url: String?) {
        func present(_ value: String?) -> String? {
            value.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        self.title = present(title)
        let text = present(text)
        link = present(url) ?? text.flatMap(Self.firstLink)
        var rest = text
        if let link, let found = rest?.range(of: link) {
            rest?.removeSubrange(found)
            // What held the link is left empty: "(…)" and a sentence's last stop go with it.
            for pair in ["()", "[]", "<>"] { rest = rest?.replacingOccurrences(of: pair, with: "") }
            rest = rest?.trimmingCharacters(in: CharacterSet.whitespacesAndNewlines.union(.init(charactersIn: ".,;:-–—")))
        }
        note = present(rest)
        // An app that sends its title as the text too: said once.
        if note == self.title { note = nil }
    }

    /// The first `http://` or `https://` address in `text`, without the punctuation a sentence puts
    /// after it.
    static func firstLink(in text: String) -> String? {
        let lower = text.lowercased()
        guard let start = [lower.range(of: "https://"), lower.range(of: "http://")].compactMap({ $0 })
            .min(by: { $0.lowerBound < $1.lowerBound })
        else { return nil }
        let offset = lower.distance(from: lower.startIndex, to: start.lowerBound)
        let from = text.index(text.startIndex, offsetBy: offset)
        var link = String(text[from...].prefix { !$0.isWhitespace && $0 != "<" && $0 != ">" && $0 != "\"" })
        // A closing bracket ends the sentence's parenthesis unless the address opened one itself
        // (`…/wiki/Bread_(food)`).
        while let last = link.last, ".,;:!?)]}'".contains(last) {
            if last == ")", link.filter({ $0 == "(" }).count >= link.filter({ $0 == ")" }).count { break }
            link.removeLast()
        }
        return link.count > "https://".count ? link : nil
    }
}

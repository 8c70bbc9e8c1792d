import Foundation

/// Trims the site's name from the end of a document `<title>` ("How X works | Example News" → "How X
/// works").
///
/// Only the `<title>` element is trimmed; `og:title` and friends are already the content's title. The
/// last part is removed when it is the site name (case and spacing ignored) or names the host
/// (`example` for `www.example.co.uk`), and something substantial remains. A leading site name
/// ("Example | How X works") is kept: pages that lead with their name often mean it as part of the title.
enum TitleCleaner {
    static let separators = [" | ", " - ", " – ", " — ", " · ", " • ", " :: ", " » ", " / ", " ~ "]

    static func trimSiteName(_ title: String, siteName: String?, host: String?) -> String {
        for separator in separators {
            guard let range = title.lastUTF8Range(of: separator) else { continue }
            let head = String(title[..<range.lowerBound])
            let tail = String(title[range.upperBound...])
            if names(tail, siteName: siteName, host: host), head.count >= 3 { return head }
        }
        return title
    }

    /// The first or last part of `title` that names the host, as written (`Wikipedia` in
    /// `Bob Dylan - Wikipedia` on `en.wikipedia.org`, `LeanData` in `LeanData | The Winds of Change` on
    /// `leandatainc.com`): the site's name when the page states none. A part names the host when,
    /// without case, spaces and punctuation, it is a host label or the start of one covering most of it.
    static func segmentNamingHost(in title: String, host: String?) -> String? {
        guard let host else { return nil }
        let labels = host.lowercased().split(separator: ".").map(String.init).filter { $0 != "www" && $0 != "m" }
        for separator in separators {
            let parts = title.utf8Components(separatedBy: separator)
            guard parts.count >= 2 else { continue }
            for part in [parts.last!, parts.first!] {
                let key = squash(part)
                guard key.count >= 3 else { continue }
                let matches = labels.contains { label in
                    label == key || (label.hasPrefix(key) && key.count * 10 >= label.count * 6)
                }
                if matches { return part.trimmingASCIIWhitespace() }
            }
        }
        return nil
    }

    /// Whether `part` is the site's name or its host's main label.
    static func names(_ part: String, siteName: String?, host: String?) -> Bool {
        let key = squash(part)
        guard !key.isEmpty else { return false }
        if let siteName, squash(siteName) == key { return true }
        if let host {
            let labels = host.lowercased().split(separator: ".").filter { $0 != "www" && $0 != "m" }
            if labels.contains(where: { squash(String($0)) == key }) { return true }
            if squash(labels.joined()) == key { return true }
        }
        return false
    }

    private static func squash(_ text: some StringProtocol) -> String {
        String(text.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.map(Character.init))
    }
}

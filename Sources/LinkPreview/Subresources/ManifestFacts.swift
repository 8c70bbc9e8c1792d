import Foundation
import LinkPreviewCore

/// What a web-app manifest (https://www.w3.org/TR/appmanifest/) says: its icons (used when the
/// page's own icons fail) and its `short_name`/`name` (the site name when the page has none),
/// cleaned and cut as the page's own site name is (``OutsideText``).
struct ManifestFacts: Sendable, Hashable {
    var name: String?
    var icons: [LinkIcon]

    init?(_ object: [String: Any], documentURL: URL) {
        name = OutsideText.field(object["short_name"] as? String) ?? OutsideText.field(object["name"] as? String)
        icons = (object["icons"] as? [[String: Any]] ?? []).prefix(32).compactMap { entry in
            guard let source = entry["src"] as? String,
                let url = URLResolver.resolveMedia(source, against: documentURL)
            else { return nil }
            // Monochrome icons are masks, not pictures to show.
            if let purpose = entry["purpose"] as? String, purpose.split(separator: " ") == ["monochrome"] { return nil }
            return LinkIcon(url: url, sizes: entry["sizes"] as? String, type: entry["type"] as? String, rel: "manifest")
        }
        if name == nil && icons.isEmpty { return nil }
    }

    func fill(_ metadata: inout LinkMetadata) {
        metadata.siteName = metadata.siteName ?? name
    }
}

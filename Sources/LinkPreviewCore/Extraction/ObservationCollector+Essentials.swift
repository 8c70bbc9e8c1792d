extension ObservationCollector {
    /// What a card needs before the rest of a document can be skipped: a title, a description and an
    /// image; when ``waitsForArticleDetails``, for an article also its date and author, which pages often
    /// give only in body JSON-LD. Tracked as tokens arrive, so the check after each tag costs a few
    /// booleans.
    struct Essentials {
        var waitsForArticleDetails = false
        var hasTitle = false
        var hasSummary = false
        var hasImage = false
        var isArticle = false
        var hasDate = false
        var hasAuthor = false
        /// The `<title>` or `og:title` names a sign-in, consent or challenge page (``WallDetector/titleSuggestsWall(_:)``):
        /// a wall served at the content's own URL often carries the site's whole card in its head, and
        /// the evidence that tells it from the content (a password field, a sign-in form) is in the body.
        var titleSuggestsWall = false

        var isComplete: Bool {
            hasTitle && hasSummary && hasImage && !titleSuggestsWall
                && (!waitsForArticleDetails || !isArticle || (hasDate && hasAuthor))
        }

        mutating func record(key: String, content: String) {
            // Every key below starts with one of these letters; most metas' keys do not.
            switch key.utf8.first {
            case UInt8(ascii: "o"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "a"): break
            default: return
            }
            guard content.utf8.contains(where: { !ByteMatching.isSpace($0) }) else { return }
            switch key {
            case "og:title", "twitter:title":
                hasTitle = true
                // A sign-in or challenge named in `og:title` only needs the body's evidence as much.
                titleSuggestsWall = titleSuggestsWall || (key == "og:title" && WallDetector.titleSuggestsWall(content))
            case "og:description", "twitter:description", "description": hasSummary = true
            case "og:image", "og:image:url", "og:image:secure_url", "twitter:image", "twitter:image:src":
                hasImage = true
            case "og:type": isArticle = isArticle || content.lowercased().containsUTF8("article")
            case "article:published_time", "article:modified_time", "datepublished", "datemodified": hasDate = true
            case "author", "article:author": hasAuthor = true
            default: break
            }
        }

        /// Notes what a JSON-LD block offers, by a cheap look for its keys (it is parsed later); only
        /// when ``waitsForArticleDetails``, since nothing else reads it.
        mutating func record(jsonLD text: [UInt8]) {
            guard waitsForArticleDetails else { return }
            let bytes = ArraySlice(text)
            if ByteMatching.containsIgnoringCase(bytes, Self.datePublished)
                || ByteMatching.containsIgnoringCase(bytes, Self.dateModified)
            {
                hasDate = true
            }
            if ByteMatching.containsIgnoringCase(bytes, Self.author) { hasAuthor = true }
            if ByteMatching.containsIgnoringCase(bytes, Self.article) { isArticle = true }
        }

        static let datePublished = Array("\"datepublished\"".utf8)
        static let dateModified = Array("\"datemodified\"".utf8)
        static let author = Array("\"author\"".utf8)
        static let article = Array("article\"".utf8)
    }
}

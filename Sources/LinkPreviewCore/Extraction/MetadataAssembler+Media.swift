import Foundation

extension MetadataAssembler {
    /// `og:image` structured properties: each `og:image` (or `og:image:url` not repeating it) starts
    /// an object and the `:secure_url`, `:type`, `:width`, `:height`, `:alt` after it describe it;
    /// then `twitter:image`, JSON-LD images and, when the page offers none, the first sizeable `<img>`.
    func images() -> [LinkMedia] {
        var result = openGraphObjects(prefix: "og:image")
        for key in ["twitter:image", "twitter:image:src"] {
            for value in metas(key) {
                guard let url = resolveMedia(value) else { continue }
                result.append(LinkMedia(url: url, alt: text(meta("twitter:image:alt"))))
            }
        }
        for image in jsonLD.images {
            guard let url = resolveMedia(image.url) else { continue }
            result.append(LinkMedia(url: url, width: image.width, height: image.height))
        }
        if result.isEmpty, let poster = observations.mediaElements.compactMap(\.poster).first,
            let url = resolveMedia(poster)
        {
            result.append(LinkMedia(url: url))
        }
        if result.isEmpty, let fallback = fallbackImage() { result.append(fallback) }
        return deduplicated(result)
    }

    func videos() -> [LinkMedia] {
        // An `og:video` of type text/html or Flash is a player page to embed, not a video.
        var result = openGraphObjects(prefix: "og:video").filter { !Self.isPlayerPage($0.type) }
        if let stream = meta("twitter:player:stream"), let url = resolveMedia(stream) {
            result.append(LinkMedia(url: url, type: text(meta("twitter:player:stream:content_type"))))
        }
        // `twitter:player` is an HTML page to embed, not a video: it is not one of these.
        result += jsonLD.videos.compactMap(media)
        if result.isEmpty {
            result += observations.mediaElements.filter { $0.kind == .video }.compactMap(elementMedia)
        }
        return deduplicated(result)
    }

    func audios() -> [LinkMedia] {
        var result = openGraphObjects(prefix: "og:audio") + jsonLD.audios.compactMap(media)
        if result.isEmpty {
            result += observations.mediaElements.filter { $0.kind == .audio }.compactMap(elementMedia)
        }
        if result.isEmpty {
            result += observations.audioLinks.compactMap { resolveMedia($0) }
                .map { LinkMedia(url: $0) }
        }
        return deduplicated(result)
    }

    static func isPlayerPage(_ type: String?) -> Bool {
        guard let type = type?.lowercased() else { return false }
        return type.hasPrefix("text/html") || type.containsUTF8("shockwave") || type.containsUTF8("flash")
    }

    /// A body `<audio>`/`<video>` (or its first `<source>`), the fallback when metadata names none.
    /// A video counts only with a media type or a media file extension: `blob:` URLs and playlists
    /// without an extension are what a player script feeds, not something to play elsewhere.
    func elementMedia(_ element: PageObservations.MediaElement) -> LinkMedia? {
        guard let source = element.source, let url = resolveMedia(source) else {
            return nil
        }
        if element.kind == .video {
            let type = element.type?.lowercased() ?? ""
            let path = url.path.lowercased()
            let isMedia = type.hasPrefix("video/") || Self.videoExtensions.contains { path.hasSuffix($0) }
            guard isMedia else { return nil }
        }
        return LinkMedia(url: url, type: text(element.type.map { String($0.prefix { $0 != ";" }) }))
    }

    static let videoExtensions = [".mp4", ".m4v", ".webm", ".mov", ".ogv", ".mkv"]

    /// Reads a sequence of Open Graph structured objects (`og:image`, `og:video`, `og:audio`).
    func openGraphObjects(prefix: String) -> [LinkMedia] {
        var result: [LinkMedia] = []
        for meta in observations.metas where meta.key.hasPrefix(prefix) {
            let property = meta.key.dropFirst(prefix.count)
            let value = meta.content.trimmingASCIIWhitespace()
            switch property {
            case "", ":url":
                guard let url = resolveMedia(value) else { continue }
                if property == ":url", let last = result.last, last.url == url { continue }
                result.append(LinkMedia(url: url))
            case ":secure_url":
                guard let url = resolveMedia(value) else { continue }
                if result.isEmpty {
                    result.append(LinkMedia(url: url))
                } else {
                    result[result.count - 1].secureURL = url
                }
            case ":type": if !result.isEmpty { result[result.count - 1].type = text(value) }
            case ":width": if !result.isEmpty { result[result.count - 1].width = Self.integer(value) }
            case ":height": if !result.isEmpty { result[result.count - 1].height = Self.integer(value) }
            case ":alt": if !result.isEmpty { result[result.count - 1].alt = text(value) }
            default: continue
            }
        }
        for index in result.indices where result[index].secureURL == result[index].url {
            result[index].secureURL = nil
        }
        return result
    }

    /// A JSON-LD VideoObject/AudioObject: its `contentUrl` (the media); an `embedUrl` is a player page.
    func media(_ item: JSONLDFacts.Media) -> LinkMedia? {
        guard let source = item.contentURL,
            let url = resolveMedia(source)
        else { return nil }
        return LinkMedia(url: url, type: text(item.encodingFormat), width: item.width, height: item.height)
    }

    /// The first `<img>` declared at least 200×100 pixels (a sizeable picture, not an icon or a
    /// tracking pixel).
    func fallbackImage() -> LinkMedia? {
        for image in observations.images {
            guard let width = image.width, let height = image.height, width >= 200, height >= 100,
                let url = resolveMedia(image.source)
            else { continue }
            return LinkMedia(url: url, width: width, height: height, alt: text(image.alt))
        }
        return nil
    }

    /// Keeps the first object for each URL, merging what later duplicates add, up to the list limit.
    func deduplicated(_ media: [LinkMedia]) -> [LinkMedia] {
        var result: [LinkMedia] = []
        for item in media {
            if let index = result.firstIndex(where: { $0.url == item.url || $0.preferredURL == item.preferredURL }) {
                result[index].width = result[index].width ?? item.width
                result[index].height = result[index].height ?? item.height
                result[index].type = result[index].type ?? item.type
                result[index].alt = result[index].alt ?? item.alt
            } else if result.count < limits.maxListItems {
                result.append(item)
            }
        }
        return result
    }

    static func integer(_ value: String) -> Int? {
        ObservationCollector.pixels(value)
    }

    func icons() -> [LinkIcon] {
        var result: [LinkIcon] = []
        for link in observations.links {
            guard let rel = link.relations.first(where: { Self.iconRelations.contains($0) }),
                result.count < limits.maxListItems,
                let url = resolveMedia(link.href)
            else { continue }
            let relation = link.relations.contains("shortcut") && rel == "icon" ? "shortcut icon" : rel
            result.append(LinkIcon(url: url, sizes: text(link.sizes), type: text(link.type), rel: relation))
        }
        return result
    }

    static let iconRelations: Set<String> = [
        "icon", "apple-touch-icon", "apple-touch-icon-precomposed", "mask-icon", "fluid-icon",
    ]
}

import Foundation

extension JSONLDGraph {
    /// An entity's images: `image`, `primaryImageOfPage`, `thumbnailUrl` and `thumbnail`; for an
    /// `ImageObject` entity, the image itself first.
    func images(of node: JSONLDNode) -> [JSONLDFacts.Image] {
        var images: [JSONLDFacts.Image] = []
        if JSONLDEntityKind.best(of: node.types)?.kind == .media, let image = image(of: node) {
            images.append(image)
        }
        for key in ["image", "primaryImageOfPage", "thumbnailUrl", "thumbnail"] {
            images += self.images(in: node[key])
        }
        return JSONLDFacts.uniqueImages(images)
    }

    /// The images in an `image`-like value: a URL string, an `ImageObject` (`url` or `contentUrl`,
    /// with `width` and `height`), a reference to one, or an array of these.
    func images(in value: JSONValue?) -> [JSONLDFacts.Image] {
        var images: [JSONLDFacts.Image] = []
        for item in JSONLDNode.items(in: value) {
            if let string = item.string {
                if let url = JSONLDText.cleanURL(string) { images.append(JSONLDFacts.Image(url: url)) }
            } else if let node = JSONLDNode(item), let image = image(of: node) ?? image(of: resolve(node)) {
                images.append(image)
            }
        }
        return images
    }

    /// An `ImageObject`'s URL and size.
    private func image(of node: JSONLDNode) -> JSONLDFacts.Image? {
        let url = (node.strings("url") + node.strings("contentUrl")).lazy.compactMap(JSONLDText.cleanURL).first
        guard let url else { return nil }
        return JSONLDFacts.Image(url: url, width: node.pixels("width"), height: node.pixels("height"))
    }

    /// Videos or audio: the primary entity itself when it is of `kind`, then the objects under
    /// `keys` in the primary entity; when there are none, those under `keys` in the WebPage entity.
    func media(
        primary: Entity?,
        page: JSONLDNode?,
        kind: JSONLDEntityKind,
        keys: [String]
    ) -> [JSONLDFacts.Media] {
        var media: [JSONLDFacts.Media] = []
        if let primary, primary.kind == kind, let own = self.media(of: primary.node) {
            media.append(own)
        }
        func attached(to node: JSONLDNode) -> [JSONLDFacts.Media] {
            keys.flatMap { JSONLDNode.items(in: node[$0]).compactMap(resolvedNode).compactMap(self.media(of:)) }
        }
        if let primary { media += attached(to: primary.node) }
        if media.isEmpty, let page { media += attached(to: page) }
        return JSONLDFacts.unique(media)
    }

    /// A `VideoObject`'s or `AudioObject`'s URLs, type, size and poster; nil without a URL.
    private func media(of node: JSONLDNode) -> JSONLDFacts.Media? {
        let contentURL = node.strings("contentUrl").lazy.compactMap(JSONLDText.cleanURL).first
        let embedURL = node.strings("embedUrl").lazy.compactMap(JSONLDText.cleanURL).first
        guard contentURL != nil || embedURL != nil else { return nil }
        let thumbnail = JSONLDFacts.uniqueImages(images(in: node["thumbnailUrl"]) + images(in: node["thumbnail"])).first
        return JSONLDFacts.Media(
            contentURL: contentURL,
            embedURL: embedURL,
            encodingFormat: node.text("encodingFormat"),
            width: node.pixels("width"),
            height: node.pixels("height"),
            thumbnail: thumbnail
        )
    }
}

import Foundation

extension JSONLDGraph {
    /// The facts the page's entities give: the primary entity's, completed by its WebPage entity's,
    /// with the site's name and logo from its WebSite, publisher or Organization.
    var facts: JSONLDFacts {
        let primary = primaryEntity
        let page = firstEntity(of: .webPage, excluding: primary)
        let sources = [primary, page].compactMap { $0?.node }
        let webSite = webSiteNode(around: sources)
        let organization = firstEntity(of: .organization)?.node

        var facts = JSONLDFacts()
        facts.type = primary?.typeName
        facts.headline = first(sources) { $0.text("headline") ?? $0.text("name") }
        facts.summary = first(sources) { node in
            node.text("description") ?? (primary?.kind == .media ? node.text("caption") : nil)
        }
        facts.images = first(sources) { nonEmpty(images(of: $0)) } ?? []
        facts.authors =
            first(sources) { nonEmpty(names(in: $0["author"])) ?? nonEmpty(names(in: $0["creator"])) } ?? []
        facts.datePublished = first(sources) { date(of: $0, keys: ["datePublished", "dateCreated", "uploadDate"]) }
        facts.dateModified = first(sources) { date(of: $0, keys: ["dateModified"]) }

        let publisher = sources.lazy.compactMap { $0["publisher"] }.first ?? webSite?["publisher"]
        let publisherNode = JSONLDNode.items(in: publisher).lazy.compactMap(resolvedNode).first
        facts.publisherName = publisherName(in: publisher)
        facts.publisherLogo =
            publisherNode.flatMap { images(in: $0["logo"]).first }
            ?? organization.flatMap { images(in: $0["logo"]).first }
        facts.siteName = webSite?.text("name") ?? (publisher == nil ? organization?.text("name") : nil)

        facts.language = first(sources + [webSite].compactMap { $0 }) { language(of: $0) }
        facts.url = url(primary: primary?.node, page: page?.node)
        facts.keywords = first(sources) { nonEmpty(keywords(of: $0)) } ?? []
        facts.videos = media(primary: primary, page: page?.node, kind: .video, keys: ["video"])
        facts.audios = media(primary: primary, page: page?.node, kind: .audio, keys: ["audio", "associatedMedia"])
        return facts
    }

    /// The first non-nil value `read` gives for `nodes`, in order.
    private func first<Value>(_ nodes: [JSONLDNode], _ read: (JSONLDNode) -> Value?) -> Value? {
        for node in nodes {
            if let value = read(node) { return value }
        }
        return nil
    }

    /// The page's `WebSite` entity, else the `WebSite` an entity `isPartOf`.
    private func webSiteNode(around nodes: [JSONLDNode]) -> JSONLDNode? {
        if let entity = firstEntity(of: .webSite) { return entity.node }
        for node in nodes {
            for part in JSONLDNode.items(in: node["isPartOf"]).compactMap(resolvedNode) {
                if JSONLDEntityKind.best(of: part.types)?.kind == .webSite { return part }
            }
        }
        return nil
    }

    // MARK: - Names

    /// Person or organization names in an `author`-like value: strings, objects with a `name`
    /// (or `givenName` and `familyName`), references to such objects, or arrays of them.
    func names(in value: JSONValue?) -> [String] {
        var names: [String] = []
        for item in JSONLDNode.items(in: value) {
            if let string = item.string {
                names += [Self.personName(string)].compactMap { $0 }
            } else if var node = JSONLDNode(item) {
                if node["name"] == nil { node = resolve(node) }
                let written = node.strings("name")
                if written.isEmpty {
                    let parts = [node.text("givenName"), node.text("familyName")].compactMap { $0 }
                    names += [Self.personName(parts.joined(separator: " "))].compactMap { $0 }
                } else {
                    names += written.compactMap(Self.personName)
                }
            }
        }
        return JSONLDFacts.unique(names)
    }

    /// A cleaned name, or nil when it is blank or a URL; a leading "By " is dropped.
    static func personName(_ string: String) -> String? {
        guard var name = JSONLDText.clean(string), !JSONLDText.looksLikeURL(name) else { return nil }
        if name.count > 3, name.prefix(3).lowercased() == "by " {
            name = String(name.dropFirst(3))
        }
        return name.isEmpty ? nil : name
    }

    private func publisherName(in value: JSONValue?) -> String? {
        for item in JSONLDNode.items(in: value) {
            if let string = item.string, let name = JSONLDText.clean(string), !JSONLDText.looksLikeURL(name) {
                return name
            }
            if let node = resolvedNode(item), let name = node.text("name") ?? resolve(node).text("name") {
                return name
            }
        }
        return nil
    }

    // MARK: - Dates, language, URL, keywords

    private func date(of node: JSONLDNode, keys: [String]) -> Date? {
        for key in keys {
            for string in node.strings(key) {
                if let date = MetadataDate.parse(string) { return date }
            }
        }
        return nil
    }

    /// `inLanguage` as a string, or a `Language` object's `alternateName` (usually the tag) or `name`.
    private func language(of node: JSONLDNode) -> String? {
        for item in JSONLDNode.items(in: node["inLanguage"]) {
            if let string = item.string, let tag = JSONLDText.clean(string) { return tag }
            if let language = resolvedNode(item), let tag = language.text("alternateName") ?? language.text("name") {
                return tag
            }
        }
        return nil
    }

    /// The primary entity's `url`, else its `mainEntityOfPage` (a URL, or an object's `@id` or
    /// `url`), else the WebPage entity's `url` or `@id`. An `@id` counts only when it is an
    /// `http(s)` URL without a fragment (Yoast's `…/#article` names a node, not a page).
    private func url(primary: JSONLDNode?, page: JSONLDNode?) -> String? {
        func pageURL(_ string: String) -> String? {
            guard let url = JSONLDText.cleanURL(string) else { return nil }
            return JSONLDText.looksLikeURL(url) || url.hasPrefix("/") ? url : nil
        }
        func idURL(_ node: JSONLDNode) -> String? {
            guard let id = node.id, let url = pageURL(id), !url.contains("#"), !url.hasPrefix("/") else { return nil }
            return url
        }
        if let primary {
            if let url = primary.strings("url").lazy.compactMap(pageURL).first { return url }
            for item in JSONLDNode.items(in: primary["mainEntityOfPage"]) {
                if let string = item.string, let url = pageURL(string) { return url }
                if let node = resolvedNode(item),
                    let url = node.strings("url").lazy.compactMap(pageURL).first ?? idURL(node)
                {
                    return url
                }
            }
        }
        guard let page else { return nil }
        return page.strings("url").lazy.compactMap(pageURL).first ?? idURL(page)
    }

    private func keywords(of node: JSONLDNode) -> [String] {
        let words = node.strings("keywords").flatMap { $0.split(separator: ",") }
        return JSONLDFacts.unique(words.compactMap { JSONLDText.clean(String($0)) })
    }
}

/// `array`, or nil when it is empty.
private func nonEmpty<Element>(_ array: [Element]) -> [Element]? {
    array.isEmpty ? nil : array
}

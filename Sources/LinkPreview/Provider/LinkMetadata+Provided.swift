public import LinkPreviewCore

extension LinkMetadata {
    /// This (fetched) metadata with every field `provided` sets taking its place: what the sharing
    /// app knows wins over what the page says. The fetched `url` (where the link really leads) and
    /// `wall` are kept; an empty provided list leaves the fetched list alone.
    ///
    /// ```swift
    /// let shown = fetched.overlaid(with: LinkMetadata(title: "Our Q3 plan"))
    /// ```
    public func overlaid(with provided: LinkMetadata?) -> LinkMetadata {
        guard let provided else { return self }
        var merged = self
        merged.originalURL = originalURL ?? provided.originalURL
        merged.url = url ?? provided.url
        merged.canonicalURL = provided.canonicalURL ?? canonicalURL
        merged.title = provided.title ?? title
        merged.summary = provided.summary ?? summary
        merged.siteName = provided.siteName ?? siteName
        merged.type = provided.type ?? type
        merged.language = provided.language ?? language
        merged.author = provided.author ?? author
        merged.published = provided.published ?? published
        merged.modified = provided.modified ?? modified
        merged.themeColor = provided.themeColor ?? themeColor
        merged.manifestURL = provided.manifestURL ?? manifestURL
        merged.twitterCard = provided.twitterCard ?? twitterCard
        if !provided.keywords.isEmpty { merged.keywords = provided.keywords }
        if !provided.icons.isEmpty { merged.icons = provided.icons }
        if !provided.images.isEmpty { merged.images = provided.images }
        if !provided.videos.isEmpty { merged.videos = provided.videos }
        if !provided.audios.isEmpty { merged.audios = provided.audios }
        if !provided.oEmbed.isEmpty { merged.oEmbed = provided.oEmbed }
        return merged
    }
}

import Foundation

extension LinkMetadata {
    /// The icon to show: an `apple-touch-icon` beats an icon with declared sizes, which beats any
    /// other icon; among equals the largest wins, or, given a `size` in pixels, the smallest that is
    /// at least `size` (else the largest). `mask-icon` (a monochrome SVG) is chosen only when nothing
    /// else exists.
    ///
    /// ```swift
    /// let icon = metadata.bestIcon(forSize: 180)?.url
    /// ```
    public func bestIcon(forSize size: Int? = nil) -> LinkIcon? {
        icons.enumerated().min { lhs, rhs in
            let a = Self.iconRank(lhs.element, size: size)
            let b = Self.iconRank(rhs.element, size: size)
            return a != b ? a < b : lhs.offset < rhs.offset
        }?.element
    }

    /// Every icon, best first by the order ``bestIcon(forSize:)`` describes (a fetcher probes them in
    /// this order).
    public func rankedIcons(forSize size: Int? = nil) -> [LinkIcon] {
        icons.enumerated().sorted { lhs, rhs in
            let a = Self.iconRank(lhs.element, size: size)
            let b = Self.iconRank(rhs.element, size: size)
            return a != b ? a < b : lhs.offset < rhs.offset
        }.map(\.element)
    }

    /// The image to show in a card: the first image that ``suitsACard(_:)``, else the first image.
    public var bestImage: LinkMedia? {
        images.first(where: Self.suitsACard) ?? images.first
    }

    /// Whether `image` can be a card's picture: at least 200×100 (or of unknown size), with an aspect
    /// ratio that is not extreme (banners and spacers are).
    public static func suitsACard(_ image: LinkMedia) -> Bool {
        guard let width = image.width, let height = image.height, width > 0, height > 0 else { return true }
        let ratio = Double(width) / Double(height)
        return width >= 200 && height >= 100 && ratio < 4 && ratio > 0.25
    }

    /// The largest square size an icon declares (`"16x16 180x180"` → 180; `"any"` → `Int.max`).
    public static func largestSize(in sizes: String?) -> Int? {
        guard let sizes else { return nil }
        var best: Int?
        for token in sizes.lowercased().split(separator: " ") {
            if token == "any" { return .max }
            let parts = token.split(separator: "x")
            guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]) else { continue }
            best = max(best ?? 0, min(w, h))
        }
        return best
    }

    /// A size written in the icon's file name when the page declares none
    /// (`apple-touch-icon-152x152.png` → 152, `favicon-32.png` is not read).
    static func sizeInFileName(_ url: URL) -> Int? {
        let name = url.lastPathComponent.lowercased()
        var best: Int?
        var index = name.startIndex
        while let x = name[index...].firstIndex(of: "x") {
            let before = name[..<x].reversed().prefix { $0.isASCII && $0.isNumber }
            let after = name[name.index(after: x)...].prefix { $0.isASCII && $0.isNumber }
            if let w = Int(String(before.reversed())), let h = Int(after), w == h, (16...1024).contains(w) {
                best = max(best ?? 0, w)
            }
            index = name.index(after: x)
        }
        return best
    }

    /// Lower is better: (kind, distance from the wanted size).
    private static func iconRank(_ icon: LinkIcon, size: Int?) -> (Int, Int) {
        let declared = largestSize(in: icon.sizes) ?? sizeInFileName(icon.url)
        let kind: Int
        switch icon.rel {
        case "apple-touch-icon", "apple-touch-icon-precomposed": kind = 0
        case "mask-icon": kind = 3
        default: kind = declared != nil ? 1 : 2
        }
        // Apple touch icons without sizes are 180×180 by convention.
        let pixels = declared ?? (kind == 0 ? 180 : 0)
        guard let size else { return (kind, -pixels) }
        let fit = pixels >= size ? pixels - size : (1 << 20) - pixels
        return (kind, fit)
    }
}

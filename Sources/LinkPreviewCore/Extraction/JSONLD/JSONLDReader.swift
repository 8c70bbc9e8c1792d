import Foundation

/// Reads the facts a link preview needs from a page's `<script type="application/ld+json">` blocks.
///
/// All the blocks of a page are read as one document: the primary entity is chosen among the
/// entities of every block (an `Article` beats a `VideoObject`, which beats a `Product`, a `Recipe`,
/// an `Event`, a podcast, then a `WebPage`; see ``JSONLDEntityKind``), and `{"@id": "…"}` references
/// (Yoast's `@graph` links its `WebPage`, `Article`, `Person` and `Organization` this way) are
/// followed across blocks. Fields the primary entity lacks come from the page's `WebPage` entity;
/// the site's name and logo from its `WebSite`, publisher or `Organization`.
///
/// Input is read leniently (comments, HTML comment and CDATA wrappers, trailing commas, raw control
/// characters in strings, several values in one block) and defensively: a block that is still not
/// JSON, or that breaks a limit, is skipped. Reading never throws, traps or recurses on input depth.
///
/// ```swift
/// let facts = JSONLDReader.read(scripts: [
///     #"{"@context": "https://schema.org", "@type": "NewsArticle", "headline": "Hello","#
///         + #""author": {"@type": "Person", "name": "Ada"}, "datePublished": "2024-05-01"}"#,
/// ])
/// facts?.headline  // "Hello"
/// facts?.authors   // ["Ada"]
/// ```
package enum JSONLDReader {
    /// Bounds on the work done for hostile or broken input.
    package struct Limits: Sendable, Hashable {
        /// A block longer than this, in UTF-8 bytes, is ignored. Default 512 KiB.
        package var maxBytes: Int
        /// A JSON value nesting objects and arrays deeper than this is ignored. Default 64; values
        /// above 512 act as 512.
        package var maxDepth: Int
        /// At most this many objects and arrays are visited per block; nodes beyond are not read.
        /// Default 10 000.
        package var maxNodes: Int

        /// Creates limits.
        ///
        /// - Parameters:
        ///   - maxBytes: Largest block read, in UTF-8 bytes. Default 512 KiB.
        ///   - maxDepth: Deepest nesting of objects and arrays read. Default 64.
        ///   - maxNodes: Most objects and arrays visited per block. Default 10 000.
        package init(maxBytes: Int = 512 * 1024, maxDepth: Int = 64, maxNodes: Int = 10_000) {
            self.maxBytes = maxBytes
            self.maxDepth = maxDepth
            self.maxNodes = maxNodes
        }
    }

    /// Reads one block.
    ///
    /// - Parameters:
    ///   - script: The text inside `<script type="application/ld+json">`.
    ///   - limits: Bounds on the work done.
    /// - Returns: The facts, or nil when the block yields none.
    package static func read(_ script: String, limits: Limits = Limits()) -> JSONLDFacts? {
        read(scripts: [script], limits: limits)
    }

    /// Reads all the blocks of a page as one document.
    ///
    /// - Parameters:
    ///   - scripts: The text inside each `<script type="application/ld+json">`, in document order.
    ///   - limits: Bounds on the work done, applied to each block.
    /// - Returns: The facts, or nil when the blocks yield none.
    package static func read(scripts: some Sequence<String>, limits: Limits = Limits()) -> JSONLDFacts? {
        var graph = JSONLDGraph()
        for script in scripts {
            let values = LenientJSON.values(in: script, maxBytes: limits.maxBytes, maxDepth: limits.maxDepth)
            graph.add(values, limits: limits)
        }
        let facts = graph.facts
        return facts.isEmpty ? nil : facts
    }
}

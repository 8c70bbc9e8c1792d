import Foundation
import LinkPreviewCore
import SharePipeKit

/// `LinkMetadata` as a readable card for a terminal. Everything in it comes from a page, so control
/// characters are dropped (``PlainText/lines(_:)``): a wall's evidence names hosts as the page
/// spelled them, percent-decoded.
struct MetadataCard {
    let metadata: LinkMetadata
    init(_ metadata: LinkMetadata) { self.metadata = metadata }

    var rendered: String {
        var lines: [String] = []
        if let wall = metadata.wall {
            lines.append("⚠ \(wall.kind) wall — the page is not the content asked for")
            lines += wall.evidence.map { "  · \($0)" }
        }
        lines.append(metadata.title ?? "(no title)")
        if let summary = metadata.summary { lines.append(summary) }
        lines.append("")
        func row(_ label: String, _ value: String?) {
            if let value { lines.append("\(label.padding(toLength: 10, withPad: " ", startingAt: 0)) \(value)") }
        }
        row("site", metadata.siteName)
        row("url", (metadata.canonicalURL ?? metadata.url)?.absoluteString)
        row("type", metadata.type)
        row("author", metadata.author)
        row("published", metadata.published?.formatted(.iso8601))
        row("language", metadata.language)
        row("image", metadata.bestImage.map(describe))
        row("icon", metadata.bestIcon()?.url.absoluteString)
        row("video", metadata.videos.first.map(describe))
        row("audio", metadata.audios.first.map(describe))
        row("oEmbed", metadata.oEmbed.first?.url.absoluteString)
        return PlainText.lines(lines.joined(separator: "\n"))
    }

    private func describe(_ media: LinkMedia) -> String {
        var text = media.preferredURL.absoluteString
        if let width = media.width, let height = media.height { text += " (\(width)×\(height))" }
        return text
    }
}

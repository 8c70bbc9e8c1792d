import Foundation
import LinkPreview
import LinkPreviewCore
import SharePipeKit

/// One link's result in `sharepipe preview`, and how it is printed.
enum PreviewOutcome: Sendable {
    case success(URL, PreviewReport)
    case failure(URL, LinkPreviewError)

    /// A card: the metadata, then how it was fetched; or the error's message. Control characters are
    /// dropped (``PlainText/lines(_:)``, as ``MetadataCard`` does): an error's message may quote a
    /// server's header.
    var card: String {
        switch self {
        case .success(_, let report):
            var lines = [MetadataCard(report.metadata).rendered]
            func row(_ label: String, _ value: String?) {
                if let value { lines.append("\(label.padding(toLength: 10, withPad: " ", startingAt: 0)) \(value)") }
            }
            row("final", report.metadata.url?.absoluteString)
            row(
                "redirects",
                report.redirects.isEmpty ? nil : report.redirects.map(\.absoluteString).joined(separator: " → ")
            )
            row(
                "time",
                Self.milliseconds(report.duration) + (report.source == .network ? "" : " (\(report.source.rawValue))")
            )
            row(
                "read",
                "\(report.bytesRead.formatted()) bytes" + (report.contentLength.map { " of \($0.formatted())" } ?? "")
            )
            return lines.joined(separator: "\n")  // the card is plain text already; the rest are URLs and figures
        case .failure(let url, let error):
            var text = "✗ \(url.absoluteString)\n\(error.message)\n(\(error.category) · \(error.code))"
            if let until = error.rememberedUntil {
                text +=
                    "\nRemembered from an earlier try until \(until.formatted(date: .omitted, time: .shortened)); "
                    + "--reload tries again now."
            }
            return PlainText.lines(text)
        }
    }

    /// One JSON object on one line: `{"url", "metadata", "fetch"}` or `{"url", "error"}`.
    var jsonLine: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        let line: Line
        switch self {
        case .success(let url, let report):
            line = Line(
                url: url,
                metadata: report.metadata,
                fetch: .init(
                    redirects: report.redirects,
                    statusCode: report.statusCode,
                    bytesRead: report.bytesRead,
                    contentLength: report.contentLength,
                    milliseconds: Double(report.duration.components.attoseconds / 1_000_000_000_000) / 1000
                        + Double(report.duration.components.seconds) * 1000,
                    source: report.source.rawValue,
                    expires: report.expires
                ),
                error: nil
            )
        case .failure(let url, let error):
            line = Line(
                url: url,
                metadata: nil,
                fetch: nil,
                error: .init(
                    category: error.category.description,
                    code: error.code.rawValue,
                    message: error.message,
                    statusCode: error.statusCode,
                    rememberedUntil: error.rememberedUntil
                )
            )
        }
        return (try? encoder.encode(line)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    private struct Line: Encodable {
        struct Fetch: Encodable {
            var redirects: [URL]
            var statusCode: Int?
            var bytesRead: Int
            var contentLength: Int?
            var milliseconds: Double
            var source: String
            var expires: Date?
        }
        struct Failure: Encodable {
            var category: String
            var code: String
            var message: String
            var statusCode: Int?
            /// Set when the failure was remembered from an earlier fetch, not met now.
            var rememberedUntil: Date?
        }
        var url: URL
        var metadata: LinkMetadata?
        var fetch: Fetch?
        var error: Failure?
    }

    static func milliseconds(_ duration: Duration) -> String {
        let ms = Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15
        return ms < 10 ? String(format: "%.1f ms", ms) : "\(Int(ms.rounded())) ms"
    }
}

import Foundation
import LinkPreview
import Testing

@testable import sharepipe

@Suite("sharepipe preview: how a result is printed")
struct PreviewOutcomeTests {
    static let url = URL(string: "https://example.com/gone")!

    @Test("A failure remembered from an earlier try says so and how to try again, in the card and the JSON")
    func rememberedFailure() throws {
        var error = LinkPreviewError(.httpStatus, "The site answered 404 Not Found.", statusCode: 404)
        let fresh = PreviewOutcome.failure(Self.url, error)
        #expect(!fresh.card.contains("--reload"))
        error.rememberedUntil = Date().addingTimeInterval(600)
        let remembered = PreviewOutcome.failure(Self.url, error)
        #expect(remembered.card.contains("Remembered from an earlier try until"))
        #expect(remembered.card.contains("--reload tries again now."))
        let line = try #require(
            try JSONSerialization.jsonObject(with: Data(remembered.jsonLine.utf8)) as? [String: Any]
        )
        #expect((line["error"] as? [String: Any])?["rememberedUntil"] is String)
    }
}

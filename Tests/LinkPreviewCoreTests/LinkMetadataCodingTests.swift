import Foundation
import LinkPreviewCore
import Testing

struct LinkMetadataCodingTests {
    @Test func roundTripsThroughJSON() throws {
        let original = LinkMetadata(
            url: URL(string: "https://example.com/a")!,
            title: "A",
            published: Date(timeIntervalSince1970: 1_600_000_000),
            images: [LinkMedia(url: URL(string: "https://example.com/a.png")!, width: 10, height: 20)]
        )
        let data = try JSONEncoder().encode(original)
        let decoded = try JSONDecoder().decode(LinkMetadata.self, from: data)
        #expect(decoded == original)
    }

    @Test func omitsAbsentFieldsAndWritesDatesAsISO8601() throws {
        let metadata = LinkMetadata(title: "A", published: Date(timeIntervalSince1970: 0))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(metadata), as: UTF8.self)
        #expect(json == #"{"published":"1970-01-01T00:00:00Z","title":"A"}"#)
    }
}

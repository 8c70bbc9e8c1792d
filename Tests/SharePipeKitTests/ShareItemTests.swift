import Foundation
import LinkPreviewCore
import SharePipeKit
import Testing

struct ShareItemTests {
    @Test("The JSON form is the documented one: version, ISO 8601 date with milliseconds, no empty keys")
    func stableJSONForm() throws {
        let item = ShareItem(
            id: UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!,
            createdAt: Date(timeIntervalSince1970: 1_700_000_000.25),
            url: URL(string: "https://example.com/a?b=c")!,
            note: "for Bob"
        )
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .secondsSince1970  // must not change the form
        let json = String(decoding: try encoder.encode(item), as: UTF8.self)
        #expect(
            json == #"{"createdAt":"2023-11-14T22:13:20.250Z","id":"6F9619FF-8B86-D011-B42D-00C04FC964FF","#
                + #""note":"for Bob","url":"https://example.com/a?b=c","version":1}"#
        )
    }

    @Test("Every field survives a round trip")
    func roundTrip() throws {
        let item = ShareItem(
            account: UUID(),
            url: URL(string: "https://example.com/")!,
            text: "look at this",
            provided: LinkMetadata(title: "Our plan", siteName: "Example"),
            note: "n",
            recipients: ["@bob", "conversation:6F9619FF-8B86-D011-B42D-00C04FC964FF"],
            attachments: [ShareAttachment(file: "0.png", name: "a.png", contentType: "image/png", byteCount: 3)]
        )
        let decoded = try JSONDecoder().decode(ShareItem.self, from: try JSONEncoder().encode(item))
        #expect(decoded == item)
    }

    @Test("A record from a newer version is refused rather than misread")
    func newerVersionRefused() {
        let json = #"{"version":2,"id":"6F9619FF-8B86-D011-B42D-00C04FC964FF","createdAt":"2023-11-14T22:13:20.250Z"}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ShareItem.self, from: Data(json.utf8)) }
    }
}

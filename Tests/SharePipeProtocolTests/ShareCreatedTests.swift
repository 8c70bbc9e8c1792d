import Foundation
import LinkPreviewCore
import SharePipeProtocol
import Testing

/// The answer to `POST /v1/shares`: the server writes a ``ShareCreated`` (and stores it for replays),
/// the Kit reads which share it names.
struct ShareCreatedTests {
    static let created = ShareCreated(
        share: Share(
            id: UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!,
            userID: UUID(uuidString: "2C6A9F5E-3B8E-4B43-9C59-0C7A9C1D2E11")!,
            deviceID: UUID(uuidString: "0E984725-C51C-4BF4-9960-E1C80E27ABA0")!,
            linkID: UUID(uuidString: "1B4E28BA-2FA1-11D2-883F-0016D3CCA427")!,
            url: URL(string: "https://example.com/a")!,
            note: "for Friday",
            provided: ProvidedMetadata(title: "A page", iconURL: URL(string: "https://example.com/icon.png")),
            recipients: ["@ada", "conversation:6f9619ff-8b86-d011-b42d-00c04fc964ff"],
            createdAt: Date(timeIntervalSince1970: 1_700_000_000)
        ),
        link: Link(
            id: UUID(uuidString: "1B4E28BA-2FA1-11D2-883F-0016D3CCA427")!,
            url: URL(string: "https://example.com/a")!,
            status: .ready,
            metadata: LinkMetadata(title: "A page"),
            fetchedAt: Date(timeIntervalSince1970: 1_700_000_060),
            createdAt: Date(timeIntervalSince1970: 1_699_999_000)
        )
    )

    @Test("A share written before shares carried files reads back with none")
    func shareWithoutAttachments() throws {
        var object = try #require(
            try JSONSerialization.jsonObject(with: try APIJSON.encoder().encode(Self.created.share)) as? [String: Any]
        )
        object["attachments"] = nil
        let share = try APIJSON.decoder().decode(Share.self, from: try JSONSerialization.data(withJSONObject: object))
        #expect(share.attachments.isEmpty && share.id == Self.created.share.id)
    }

    @Test("The answer is written with the API's member names and read back whole")
    func roundTrips() throws {
        let body = try APIJSON.encoder().encode(Self.created)
        let object = try #require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
        #expect(object.keys.sorted() == ["link", "share"])
        let share = try #require(object["share"] as? [String: Any])
        #expect(
            share.keys.sorted()
                == ["attachments", "createdAt", "deviceID", "id", "linkID", "note", "provided", "recipients", "url", "userID"]
        )
        #expect(share["createdAt"] as? String == "2023-11-14T22:13:20Z")
        let link = try #require(object["link"] as? [String: Any])
        #expect(link.keys.sorted() == ["createdAt", "fetchedAt", "id", "metadata", "status", "url"])
        #expect(link["status"] as? String == "ready")
        #expect(try APIJSON.decoder().decode(ShareCreated.self, from: body) == Self.created)
    }

    @Test("The share an answer names is read from what the server wrote")
    func namesTheShare() throws {
        let body = try APIJSON.encoder().encode(Self.created)
        #expect(ShareCreated.shareID(in: body) == Self.created.share.id)
    }

    /// A server newer than the app may say more about the link; the share is recorded all the same, and
    /// taking the answer for none would send it again and again.
    @Test("Only `share.id` decides which share an answer names")
    func namesTheShareWhateverTheLinkSays() {
        let newer = #"{"share":{"id":"6f9619ff-8b86-d011-b42d-00c04fc964ff"},"link":{"status":"quarantined"}}"#
        #expect(ShareCreated.shareID(in: Data(newer.utf8)) == Self.created.share.id)
        for body in ["", "{}", #"{"share":{}}"#, #"{"share":{"id":"not-a-uuid"}}"#, #"{"share":{"id":7}}"#, "[]"] {
            #expect(ShareCreated.shareID(in: Data(body.utf8)) == nil, "\(body)")
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LinkPreviewCore
import SQLKit
import SharePipeProtocol
import SharePipeServer
import Testing

/// A few people on one server (`ada` from the fixture, plus `bob`, `cat`, `dan`), sharing with each
/// other through the API.
struct ShelfWorld {
    let client: LiveClient
    let database: Database
    var tokens: [String: String]
    var ids: [String: UUID]

    static func make(_ fixture: ServerFixture, _ client: LiveClient) async throws -> ShelfWorld {
        var world = ShelfWorld(client: client, database: fixture.context.database, tokens: ["ada": fixture.appToken], ids: ["ada": fixture.user.id])
        for handle in ["bob", "cat", "dan"] {
            let user = try await fixture.context.database.createUser(
                handle: handle,
                displayName: handle.capitalized,
                passwordHash: nil
            )
            world.tokens[handle] = try await fixture.context.database.createDevice(userID: user.id, name: "phone")
                .appToken
            world.ids[handle] = user.id
        }
        return world
    }

    func request(
        _ handle: String,
        _ method: HTTPRequest.Method,
        _ uri: String,
        _ body: String? = nil
    ) async throws -> LiveResponse {
        var headers = ServerFixture.headers(
            token: tokens[handle],
            key: method == .post && uri == "/v1/shares" ? UUID().uuidString : nil
        )
        if body == nil { headers[.contentType] = nil }
        return try await client.execute(uri: uri, method: method, headers: headers, body: body.map(ServerFixture.body))
    }

    /// `handle` makes a conversation with `members` (handles with their `@`), titled for a group; its id.
    func conversation(_ handle: String, with members: [String], title: String? = nil) async throws -> UUID {
        let list = members.map { "\"\($0)\"" }.joined(separator: ",")
        let titleJSON = title.map { #", "title": "\#($0)""# } ?? ""
        let response = try await request(handle, .post, "/v1/conversations", #"{"members": [\#(list)]\#(titleJSON)}"#)
        let id = try #require(try ServerFixture.json(response)["id"] as? String)
        return try #require(UUID(uuidString: id))
    }

    /// `handle` shares `url` with `recipients` (and `provided`, a JSON object); returns the link id.
    /// Its preview is made ready at once (`ready`), as a fetch would, unless it is left pending.
    @discardableResult
    func share(
        _ handle: String,
        _ url: String,
        to recipients: [String],
        note: String? = nil,
        provided: String? = nil,
        ready: Bool = true
    ) async throws -> String {
        let list = recipients.map { "\"\($0)\"" }.joined(separator: ",")
        let noteJSON = note.map { #", "note": "\#($0)""# } ?? ""
        let providedJSON = provided.map { #", "provided": \#($0)"# } ?? ""
        let response = try await request(
            handle,
            .post,
            "/v1/shares",
            #"{"url": "\#(url)", "recipients": [\#(list)]\#(noteJSON)\#(providedJSON)}"#
        )
        #expect(response.status == .created, "\(String(buffer: response.body))")
        let link = (try ServerFixture.json(response)["link"] as? [String: Any])?["id"] as? String ?? ""
        if ready, let url = URL(string: url) { try await finishPreview(link, of: url) }
        return link
    }

    /// Gives `link` a preview of `url` with no title, as a fetch of a bare page would, and ends its job
    /// (a worker holding it finds it gone and leaves the link as it is).
    func finishPreview(_ link: String, of url: URL) async throws {
        let json = try MetadataJSON.encode(LinkMetadata(url: url))
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try await database.run { sql in
            try await sql.raw("DELETE FROM jobs WHERE link_id = \(bind: link)").run()
            try await sql.raw(
                """
                UPDATE links SET status = 'ready', metadata = \(bind: json), fetched_at = \(bind: now)
                WHERE id = \(bind: link) AND status = 'pending'
                """
            ).run()
        }
    }

    /// A page of `handle`'s shelf.
    func shelf(
        _ handle: String,
        limit: Int = 20,
        cursor: String? = nil
    ) async throws -> (items: [[String: Any]], next: String?) {
        var uri = "/v1/highlights?limit=\(limit)"
        if let cursor { uri += "&cursor=\(cursor)" }
        let response = try await request(handle, .get, uri)
        #expect(response.status == .ok)
        let json = try ServerFixture.json(response)
        return (json["highlights"] as? [[String: Any]] ?? [], json["nextCursor"] as? String)
    }

    /// The link URLs of `handle`'s first shelf page, in order.
    func shelfURLs(_ handle: String, limit: Int = 20) async throws -> [String] {
        try await shelf(handle, limit: limit).items.compactMap { $0["url"] as? String }
    }
}

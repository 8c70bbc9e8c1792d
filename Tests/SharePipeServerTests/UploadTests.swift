import Crypto
import Foundation
import SQLKit
import HTTPTypes
import NIOCore
import NIOPosix
import SharePipeProtocol
import Testing

@testable import SharePipeServer

/// `/v1/uploads` on a real server: announce, send, resume after a dropped connection, checked
/// against the SHA-256, typed from the bytes, stored once.
@Suite("Uploads")
struct UploadTests {
    static func sha256(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }

    /// The first bytes of a PNG of `width` × `height` (signature and IHDR; enough for its type and size).
    static func png(width: UInt32, height: UInt32, padding: Int = 0) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        bytes += Array("IHDR".utf8)
        for value in [width, height] { bytes += withUnsafeBytes(of: value.bigEndian, Array.init) }
        bytes += [8, 2, 0, 0, 0, 0, 0, 0, 0]
        return bytes + BlobStoreTests.bytes(padding, seed: 7)
    }

    static func headers(_ token: String, offset: Int64? = nil) -> HTTPFields {
        var headers = ServerFixture.headers(token: token, json: offset == nil)
        if let offset {
            headers[.contentType] = "application/offset+octet-stream"
            headers[HTTPField.Name("Upload-Offset")!] = String(offset)
        }
        return headers
    }

    static func announce(_ bytes: [UInt8], name: String? = nil, token: String, _ client: LiveClient) async throws -> LiveResponse {
        let request = UploadRequest(sha256: sha256(bytes), size: Int64(bytes.count), name: name)
        return try await client.execute(
            uri: "/v1/uploads",
            method: .post,
            headers: headers(token),
            body: ByteBuffer(bytes: try JSONEncoder().encode(request))
        )
    }

    static func patch(_ bytes: ArraySlice<UInt8>, of sha: String, at offset: Int64, token: String, _ client: LiveClient) async throws
        -> LiveResponse
    {
        try await client.executeOnItsOwnConnection(
            uri: "/v1/uploads/\(sha)",
            method: .patch,
            headers: headers(token, offset: offset),
            body: ByteBuffer(bytes: bytes)
        )
    }

    /// The fixture's user uploads `bytes` (expecting `contentType`) and shares them with a new user
    /// Bob; the share's id and Bob's app token.
    static func shareFileWithBob(
        _ bytes: [UInt8],
        name: String,
        contentType: String,
        _ fixture: ServerFixture,
        _ client: LiveClient
    ) async throws -> (shareID: String, bobApp: String) {
        let storage = fixture.context.database
        let bob = try await storage.createUser(handle: "bob", displayName: "Bob", passwordHash: nil)
        let (_, bobApp, _) = try await storage.createDevice(userID: bob.id, name: "phone")
        let sha = sha256(bytes)
        _ = try await announce(bytes, name: name, token: fixture.shareToken, client)
        let sent = try await patch(bytes[...], of: sha, at: 0, token: fixture.shareToken, client)
        #expect(try upload(sent)["contentType"] as? String == contentType)
        let created = try await share(
            #"{"recipients": ["@bob"], "attachments": [{"sha256": "\#(sha)"}]}"#,
            token: fixture.shareToken,
            client
        )
        let id = try #require((try ServerFixture.json(created)["share"] as? [String: Any])?["id"] as? String)
        return (id, bobApp)
    }

    static func upload(_ json: LiveResponse) throws -> [String: Any] {
        try #require(try ServerFixture.json(json)["upload"] as? [String: Any])
    }

    @Test("A photo announced, sent and read back: typed from its bytes, complete at once when announced again", arguments: TestDatabase.all)
    func roundTrip(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let bytes = Self.png(width: 1200, height: 630, padding: 300_000)
            let sha = Self.sha256(bytes)
            let announced = try await Self.announce(bytes, name: "Beach day.png", token: fixture.shareToken, client)
            #expect(announced.head.status == .created)
            #expect(announced.head.headerFields[HTTPField.Name("Upload-Offset")!] == "0")
            #expect(announced.head.headerFields[.location] == "/v1/uploads/\(sha)")
            let sent = try await Self.patch(bytes[...], of: sha, at: 0, token: fixture.shareToken, client)
            #expect(sent.head.status == .ok)
            let upload = try Self.upload(sent)
            #expect(upload["complete"] as? Bool == true && upload["contentType"] as? String == "image/png")
            #expect(upload["width"] as? Int == 1200 && upload["height"] as? Int == 630)
            #expect(sent.head.headerFields[HTTPField.Name("Upload-Complete")!] == "?1")

            let again = try await Self.announce(bytes, token: fixture.shareToken, client)
            #expect(again.head.status == .ok)
            #expect(try Self.upload(again)["complete"] as? Bool == true)

            let content = try await client.executeOnItsOwnConnection(
                uri: "/v1/uploads/\(sha)/content",
                method: .get,
                headers: ServerFixture.headers(token: fixture.appToken, json: false)
            )
            #expect(Array(content.body.readableBytesView) == bytes)
            #expect(content.head.headerFields[.contentType] == "image/png")
            #expect(content.head.headerFields[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
            #expect(content.head.headerFields[.contentDisposition]?.hasPrefix("attachment; filename=\"Beach day.png\"") == true)
        }
    }

    @Test("A 25 MB upload cut off at 60 % resumes from what the server stored: the rest is 40 % of it", arguments: TestDatabase.all)
    func resume(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let bytes = Self.png(width: 4000, height: 3000, padding: 25_000_000)
            let sha = Self.sha256(bytes)
            _ = try await Self.announce(bytes, token: fixture.shareToken, client)
            // The whole file promised, 60 % of it sent, then the connection closed.
            let cut = bytes.count * 6 / 10
            try await Self.sendCutOff(
                head: "PATCH /v1/uploads/\(sha) HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer \(fixture.shareToken)\r\n"
                    + "Content-Type: application/offset+octet-stream\r\nUpload-Offset: 0\r\nContent-Length: \(bytes.count)\r\n\r\n",
                body: bytes[..<cut],
                port: client.port
            )
            // The server keeps what arrived once it sees the connection end.
            var stored: Int64 = 0
            for _ in 0..<200 {
                let state = try await client.execute(
                    uri: "/v1/uploads/\(sha)",
                    method: .head,
                    headers: ServerFixture.headers(token: fixture.shareToken, json: false)
                )
                stored = Int64(state.head.headerFields[HTTPField.Name("Upload-Offset")!] ?? "") ?? 0
                if stored == Int64(cut) { break }
                try await Task.sleep(for: .milliseconds(50))
            }
            #expect(stored == Int64(cut))
            let rest = bytes[Int(stored)...]
            #expect(rest.count <= bytes.count * 4 / 10 + UploadService.pieceSize)
            let finished = try await Self.patch(rest, of: sha, at: stored, token: fixture.shareToken, client)
            #expect(try Self.upload(finished)["complete"] as? Bool == true)
            var read: [UInt8] = []
            try await fixture.context.database.readBlob(sha, range: nil) { read += $0.readableBytesView }
            #expect(read == bytes)
        }
    }

    @Test("Bytes that do not match their SHA-256 are refused and nothing is kept", arguments: TestDatabase.all)
    func hashMismatch(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let bytes = Self.png(width: 10, height: 10, padding: 1000)
            let sha = Self.sha256(bytes)
            _ = try await Self.announce(bytes, token: fixture.shareToken, client)
            var other = bytes
            other[500] ^= 0xFF
            let sent = try await Self.patch(other[...], of: sha, at: 0, token: fixture.shareToken, client)
            #expect(sent.head.status == .unprocessableContent)
            #expect(try ServerFixture.json(sent)["type"] as? String == ProblemDetails.TypeURI.uploadHashMismatch)
            let state = try await client.execute(
                uri: "/v1/uploads/\(sha)",
                method: .get,
                headers: ServerFixture.headers(token: fixture.shareToken, json: false)
            )
            #expect(state.head.status == .notFound)
            let inventory = try await fixture.context.database.run { sql in
                try await fixture.context.database.blobs.inventory(in: sql)
            }
            #expect(inventory.blobs.isEmpty && inventory.uploads.isEmpty)
        }
    }

    @Test("A PATCH from another offset is 409 and says the offset the server has", arguments: TestDatabase.all)
    func offsetMismatch(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let bytes = Self.png(width: 10, height: 10, padding: 5000)
            let sha = Self.sha256(bytes)
            _ = try await Self.announce(bytes, token: fixture.shareToken, client)
            _ = try await Self.patch(bytes[..<2000], of: sha, at: 0, token: fixture.shareToken, client)
            for offset: Int64 in [0, 1999, 2001, 9_999_999] {
                let sent = try await Self.patch(bytes[2000...], of: sha, at: offset, token: fixture.shareToken, client)
                #expect(sent.head.status == .conflict)
                #expect(sent.head.headerFields[HTTPField.Name("Upload-Offset")!] == "2000")
                #expect(try ServerFixture.json(sent)["type"] as? String == ProblemDetails.TypeURI.uploadOffsetMismatch)
            }
            let done = try await Self.patch(bytes[2000...], of: sha, at: 2000, token: fixture.shareToken, client)
            #expect(try Self.upload(done)["complete"] as? Bool == true)
        }
    }

    @Test("Another user's identical bytes are sent and checked too, then stored once", arguments: TestDatabase.all)
    func storedOnce(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let storage = fixture.context.database
            let bob = try await storage.createUser(handle: "bob", displayName: "Bob", passwordHash: nil)
            let (_, _, bobToken) = try await storage.createDevice(userID: bob.id, name: "phone")
            let bytes = Self.png(width: 10, height: 10, padding: 4000)
            let sha = Self.sha256(bytes)
            for token in [fixture.shareToken, bobToken] {
                let announced = try await Self.announce(bytes, token: token, client)
                // Bob is not told that Ada has these bytes: he sends them like anyone.
                #expect(announced.head.status == .created)
                #expect(try Self.upload(announced)["offset"] as? Int == 0)
                let sent = try await Self.patch(bytes[...], of: sha, at: 0, token: token, client)
                #expect(try Self.upload(sent)["complete"] as? Bool == true)
            }
            let inventory = try await storage.run { sql in try await storage.blobs.inventory(in: sql) }
            #expect(inventory.blobs == [sha] && inventory.uploads.isEmpty)
            // Ada's upload is hers alone: Bob's token does not see it, nor remove it by removing his.
            let removed = try await client.execute(
                uri: "/v1/uploads/\(sha)",
                method: .delete,
                headers: ServerFixture.headers(token: bobToken, json: false)
            )
            #expect(removed.head.status == .noContent)
            #expect(try await storage.upload(UploadKey(userID: fixture.user.id, sha256: sha))?.isComplete == true)
            var read: [UInt8] = []
            try await storage.readBlob(sha, range: nil) { read += $0.readableBytesView }
            #expect(read == bytes)
        }
    }

    @Test("Housekeeping removes unshared uploads after their retention, then the blobs no upload names", arguments: TestDatabase.all)
    func housekeeping(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let storage = fixture.context.database
            let whole = Self.png(width: 10, height: 10, padding: 3000)
            let half = Self.png(width: 20, height: 20, padding: 3000)
            _ = try await Self.announce(whole, token: fixture.shareToken, client)
            _ = try await Self.patch(whole[...], of: Self.sha256(whole), at: 0, token: fixture.shareToken, client)
            _ = try await Self.announce(half, token: fixture.shareToken, client)
            _ = try await Self.patch(half[..<1000], of: Self.sha256(half), at: 0, token: fixture.shareToken, client)
            // Within the retention nothing goes.
            #expect(try await storage.sweepUploads(untouchedSince: Date().addingTimeInterval(-3600)) == (0, 0))
            let swept = try await storage.sweepUploads(untouchedSince: Date().addingTimeInterval(60))
            #expect(swept == (2, 1))
            let inventory = try await storage.run { sql in try await storage.blobs.inventory(in: sql) }
            #expect(inventory.blobs.isEmpty && inventory.uploads.isEmpty)
        }
    }

    /// A piece of a file upload writes no row: housekeeping must go by the file's time, or it would
    /// take an upload announced long ago that is arriving now.
    @Test("An upload announced long ago whose bytes arrive now is never swept", arguments: TestDatabase.all)
    func arrivingUploadIsKept(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let storage = fixture.context.database
            let bytes = Self.png(width: 30, height: 30, padding: 5000)
            let sha = Self.sha256(bytes)
            _ = try await Self.announce(bytes, token: fixture.shareToken, client)
            // Announced two hours ago; this sweep keeps uploads for one. (Not a day: the server's own
            // housekeeping, keeping them 24 h, could take it before its first piece arrives.)
            let announced = Int64(Date().addingTimeInterval(-7_200).timeIntervalSince1970 * 1000)
            try await storage.run { sql in
                try await sql.raw("UPDATE uploads SET updated_at = \(bind: announced) WHERE sha256 = \(bind: sha)").run()
            }
            _ = try await Self.patch(bytes[..<2000], of: sha, at: 0, token: fixture.shareToken, client)
            #expect(try await storage.sweepUploads(untouchedSince: Date().addingTimeInterval(-3600)) == (0, 0))
            let rest = try await Self.patch(bytes[2000...], of: sha, at: 2000, token: fixture.shareToken, client)
            #expect(try Self.upload(rest)["complete"] as? Bool == true, "\(rest.head.status) \(String(buffer: rest.body))")
        }
    }

    @Test("Limits: a file over the size, past the quota, an image too large, bytes past the end", arguments: TestDatabase.all)
    func limits(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database, configure: { $0.uploads.maxFileBytes = 100_000; $0.uploads.quotaBytes = 150_000 }) {
            fixture,
            client in
            let big = Self.png(width: 10, height: 10, padding: 100_000)
            let tooLarge = try await Self.announce(big, token: fixture.shareToken, client)
            #expect(tooLarge.head.status == .contentTooLarge)
            #expect(try ServerFixture.json(tooLarge)["type"] as? String == ProblemDetails.TypeURI.fileTooLarge)

            let first = Self.png(width: 10, height: 10, padding: 90_000)
            #expect(try await Self.announce(first, token: fixture.shareToken, client).head.status == .created)
            let second = Self.png(width: 11, height: 10, padding: 90_000)
            let overQuota = try await Self.announce(second, token: fixture.shareToken, client)
            #expect(overQuota.head.status == .contentTooLarge)
            #expect(try ServerFixture.json(overQuota)["type"] as? String == ProblemDetails.TypeURI.quotaExceeded)

            let bomb = Self.png(width: 100_000, height: 100_000, padding: 100)
            _ = try await Self.announce(bomb, token: fixture.appToken, client)
            let refused = try await Self.patch(bomb[...], of: Self.sha256(bomb), at: 0, token: fixture.appToken, client)
            #expect(refused.head.status == .unprocessableContent)
            #expect(try ServerFixture.json(refused)["type"] as? String == ProblemDetails.TypeURI.imageTooLarge)

            let small = Self.png(width: 10, height: 10, padding: 10)
            _ = try await Self.announce(small, token: fixture.shareToken, client)
            let pastEnd = try await Self.patch((small + [1, 2, 3])[...], of: Self.sha256(small), at: 0, token: fixture.shareToken, client)
            #expect(pastEnd.head.status == .contentTooLarge)
            #expect(try ServerFixture.json(pastEnd)["type"] as? String == ProblemDetails.TypeURI.uploadPastSize)
        }
    }

    @Test("An upload whose bytes all arrived but whose check was cut short is checked when announced again", arguments: TestDatabase.all)
    func checkCutShort(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let bytes = Self.png(width: 30, height: 20, padding: 700)
            let key = UploadKey(userID: fixture.user.id, sha256: Self.sha256(bytes))
            _ = try await Self.announce(bytes, token: fixture.shareToken, client)
            // Every byte stored, as a PATCH does, but no check after it (the server stopped there).
            _ = try await fixture.context.database.appendToUpload(key, at: 0, bytes: ByteBuffer(bytes: bytes))
            #expect(try await fixture.context.database.upload(key)?.isComplete == false)
            let again = try await Self.announce(bytes, token: fixture.shareToken, client)
            #expect(again.head.status == .ok)
            #expect(try Self.upload(again)["complete"] as? Bool == true)
            #expect(try Self.upload(again)["width"] as? Int == 30)
        }
    }

    static func share(_ json: String, token: String, _ client: LiveClient) async throws -> LiveResponse {
        try await client.execute(
            uri: "/v1/shares",
            method: .post,
            headers: ServerFixture.headers(token: token, key: UUID().uuidString),
            body: ServerFixture.body(json)
        )
    }

    @Test("A link shared with photos carries them, in order, typed; the photos stay while the share does", arguments: TestDatabase.all)
    func shareWithPhotos(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let storage = fixture.context.database
            let first = Self.png(width: 800, height: 600, padding: 2000)
            let second = Self.png(width: 640, height: 480, padding: 3000)
            for photo in [first, second] {
                _ = try await Self.announce(photo, name: "photo.png", token: fixture.shareToken, client)
                _ = try await Self.patch(photo[...], of: Self.sha256(photo), at: 0, token: fixture.shareToken, client)
            }
            let body = """
                {"url": "https://example.com/trip", "attachments": [
                  {"sha256": "\(Self.sha256(second))", "name": "Second.png"}, {"sha256": "\(Self.sha256(first))"},
                  {"sha256": "\(Self.sha256(second))"}]}
                """
            let created = try await Self.share(body, token: fixture.shareToken, client)
            #expect(created.head.status == .created)
            let share = try #require(try ServerFixture.json(created)["share"] as? [String: Any])
            let attachments = try #require(share["attachments"] as? [[String: Any]])
            #expect(attachments.map { $0["sha256"] as? String } == [Self.sha256(second), Self.sha256(first)])
            #expect(attachments.map { $0["name"] as? String } == ["Second.png", "photo.png"])
            #expect(attachments.map { $0["width"] as? Int } == [640, 800])
            // Read back, the share has them too.
            let id = try #require(share["id"] as? String)
            let shown = try await client.execute(
                uri: "/v1/shares/\(id)",
                method: .get,
                headers: ServerFixture.headers(token: fixture.appToken, json: false)
            )
            #expect((try ServerFixture.json(shown)["attachments"] as? [[String: Any]])?.count == 2)
            // A shared photo cannot be removed, and housekeeping keeps it.
            let removed = try await client.execute(
                uri: "/v1/uploads/\(Self.sha256(first))",
                method: .delete,
                headers: ServerFixture.headers(token: fixture.appToken, json: false)
            )
            #expect(removed.head.status == .conflict)
            #expect(try await storage.sweepUploads(untouchedSince: Date().addingTimeInterval(60)) == (0, 0))
            #expect(try await storage.upload(UploadKey(userID: fixture.user.id, sha256: Self.sha256(first)))?.isComplete == true)
        }
    }

    @Test("A share naming a file that is not the sharer's complete upload is refused at it, and nothing is recorded", arguments: TestDatabase.all)
    func shareWithMissingPhotos(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let storage = fixture.context.database
            let bob = try await storage.createUser(handle: "bob", displayName: "Bob", passwordHash: nil)
            let (_, _, bobToken) = try await storage.createDevice(userID: bob.id, name: "phone")
            let bobs = Self.png(width: 10, height: 10, padding: 500)
            _ = try await Self.announce(bobs, token: bobToken, client)
            _ = try await Self.patch(bobs[...], of: Self.sha256(bobs), at: 0, token: bobToken, client)
            let partial = Self.png(width: 12, height: 10, padding: 500)
            _ = try await Self.announce(partial, token: fixture.shareToken, client)
            _ = try await Self.patch(partial[..<100], of: Self.sha256(partial), at: 0, token: fixture.shareToken, client)
            for sha in [Self.sha256(bobs), Self.sha256(partial), String(repeating: "d", count: 64)] {
                let refused = try await Self.share(
                    #"{"url": "https://example.com/x", "attachments": [{"sha256": "\#(sha)"}]}"#,
                    token: fixture.shareToken,
                    client
                )
                #expect(refused.head.status == .unprocessableContent)
                let errors = try ServerFixture.json(refused)["errors"] as? [[String: Any]]
                #expect(errors?.first?["pointer"] as? String == "/attachments/0")
            }
            #expect(try await storage.shares(userID: fixture.user.id, before: nil, limit: 10).isEmpty)
            let tooMany = (0..<11).map { #"{"sha256": "\#(String(repeating: "e", count: 63))\#($0 % 10)"}"# }.joined(separator: ",")
            let refused = try await Self.share(#"{"url": "https://example.com/x", "attachments": [\#(tooMany)]}"#, token: fixture.shareToken, client)
            #expect(refused.head.status == .unprocessableContent)
        }
    }

    /// Writes `head` and `body` on a new connection to 127.0.0.1:`port`, then ends it (the sending
    /// half first, so every byte written reaches the server before it sees the end): a phone that
    /// lost its network mid-upload. Returns once the server has closed its side.
    static func sendCutOff(head: String, body: ArraySlice<UInt8>, port: Int) async throws {
        let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(
                        wrappingChannelSynchronously: channel,
                        configuration: .init(isOutboundHalfClosureEnabled: true)
                    )
                }
            }
        try await channel.executeThenClose { inbound, outbound in
            try await outbound.write(ByteBuffer(string: head))
            var start = body.startIndex
            while start < body.endIndex {
                let end = min(body.endIndex, start + 64 * 1024)
                try await outbound.write(ByteBuffer(bytes: body[start..<end]))
                start = end
            }
            outbound.finish()
            do {
                for try await _ in inbound {}
            } catch {
                // A reset is an end too.
            }
        }
    }
}

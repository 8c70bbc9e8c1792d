import Foundation
import HTTPTypes
import NIOCore
import SQLKit
import SharePipeProtocol
import Testing

@testable import SharePipeServer

/// The share form of "My links", as a browser without JavaScript sends it: `multipart/form-data`.
@Suite("The web page's share form")
struct WebShareFormTests {
    /// A `multipart/form-data` body of `fields` and `files` (name, bytes), as browsers write it.
    static func multipart(_ fields: [(String, String)], files: [(String, [UInt8])], boundary: String) -> ByteBuffer {
        var body = ByteBuffer()
        for (name, value) in fields {
            body.writeString("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n\(value)\r\n")
        }
        for (name, bytes) in files {
            body.writeString(
                "--\(boundary)\r\nContent-Disposition: form-data; name=\"files\"; filename=\"\(name)\"\r\n"
                    + "Content-Type: application/octet-stream\r\n\r\n"
            )
            body.writeBytes(bytes)
            body.writeString("\r\n")
        }
        body.writeString("--\(boundary)--\r\n")
        return body
    }

    static func post(
        _ browser: inout Browser,
        _ client: LiveClient,
        fields: [(String, String)],
        files: [(String, [UInt8])]
    ) async throws -> LiveResponse {
        let boundary = "----SharePipeFormBoundary\(UUID().uuidString.prefix(8))"
        var headers = browser.headers
        headers[.contentType] = "multipart/form-data; boundary=\(boundary)"
        let response = try await client.execute(
            uri: "/mine",
            method: .post,
            headers: headers,
            body: multipart(fields, files: files, boundary: boundary)
        )
        browser.receive(response)
        return response
    }

    static func count(_ table: String, _ fixture: ServerFixture) async throws -> Int {
        try await fixture.context.database.run { sql in
            try await sql.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table)").first()?.decode(column: "n", as: Int.self) ?? 0
        }
    }

    @Test("Photos and a note sent through the form are one share with its files, once however often the form is sent", arguments: TestDatabase.all)
    func photosThroughTheForm(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            var browser = try await WebShelfTests.signedIn(fixture)
            let page = try await browser.get(client, "/mine")
            let html = String(buffer: page.body)
            #expect(html.contains(#"enctype="multipart/form-data""#))
            let csrf = try #require(Browser.csrf(in: page))
            let key = try #require(html.range(of: #"name="key" value=""#).map { String(html[$0.upperBound...].prefix { $0 != "\"" }) })
            let photo = FileSetShareTests.png(width: 640, height: 480, padding: UploadService.pieceSize + 1000)  // two pieces
            let fields = [("csrf", csrf), ("key", key), ("url", ""), ("note", "the beach"), ("to", "")]
            let sent = try await Self.post(&browser, client, fields: fields, files: [("C:\\Users\\ada\\beach.png", photo), ("", [])])
            #expect(sent.status == .seeOther)
            #expect(sent.headers[.location] == "/mine")
            let again = try await Self.post(&browser, client, fields: fields, files: [("beach.png", photo)])
            #expect(again.status == .seeOther)

            let shares = try await fixture.context.database.shares(userID: fixture.user.id, before: nil, limit: 10)
            #expect(shares.count == 1, "the form sent twice is one share")
            let share = try #require(shares.first)
            #expect(share.url == nil)
            #expect(share.note == "the beach")
            #expect(share.deviceID == nil, "a browser's session is no device")
            #expect(share.attachments.map(\.name) == ["beach.png"], "the name without the folder an old browser sends")
            #expect(share.attachments.first?.sha256 == UploadTests.sha256(photo))
            #expect(share.attachments.first?.width == 640)
            let mine = String(buffer: try await browser.get(client, "/mine").body)
            #expect(mine.contains("beach.png") && mine.contains("the beach"))
            let file = try await browser.get(client, "/files/\(share.id.uuidString)/0")
            #expect(Array(file.body.readableBytesView).count == photo.count)
        }
    }

    @Test("A form without its CSRF token, a file over the limit or too many files is refused, and nothing is kept")
    func refusals() async throws {
        let forms = FileManager.default.temporaryDirectory.appendingPathComponent("forms-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: forms, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: forms) }
        // A limit of 1 MiB: what is refused is the same, and a debug build parses less.
        let configure: @Sendable (inout ServerConfiguration) -> Void = {
            $0.uploads.formFolder = forms
            $0.uploads.maxFileBytes = 1 << 20
        }
        try await ServerFixture.run(configure: configure) { fixture, client in
            var browser = try await WebShelfTests.signedIn(fixture)
            let page = try await browser.get(client, "/mine")
            let csrf = try #require(Browser.csrf(in: page))
            let photo = FileSetShareTests.png(width: 64, height: 64, padding: 100)

            let forged = try await Self.post(&browser, client, fields: [("note", "x")], files: [("a.png", photo)])
            #expect(forged.status == .forbidden)

            let limit = fixture.context.configuration.uploads.maxFileBytes
            let huge = [UInt8](repeating: 7, count: Int(limit) + 1)
            let tooLarge = try await Self.post(&browser, client, fields: [("csrf", csrf)], files: [("big.bin", huge)])
            #expect(tooLarge.status == .contentTooLarge)
            #expect(String(buffer: tooLarge.body).contains("big.bin is larger than this server takes: at most 1 MB"), "says the limit")

            let eleven = (0..<11).map { ("\($0).png", FileSetShareTests.png(width: 8, height: 8, padding: $0)) }
            let tooMany = try await Self.post(&browser, client, fields: [("csrf", csrf)], files: eleven)
            #expect(tooMany.status == .unprocessableContent)

            let nothing = try await Self.post(&browser, client, fields: [("csrf", csrf), ("note", "just words")], files: [])
            #expect(nothing.status == .unprocessableContent)

            #expect(try await Self.count("uploads", fixture) == 0)
            #expect(try await Self.count("shares", fixture) == 0)
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: forms.path)
            #expect(leftovers.isEmpty, "no form's files are left behind: \(leftovers)")
        }
    }
}

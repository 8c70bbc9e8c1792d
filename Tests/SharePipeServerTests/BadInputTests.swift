import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SharePipeServer
import Testing

/// The bad-input table (``BadInput/table``) against every route of the API: each request gets the right
/// 4xx as an RFC 9457 problem (type, title, status and detail), never a 5xx.
@Suite("Bad input against every endpoint")
struct BadInputTests {
    @Test("Every route of the API has rows in the table")
    func everyRouteIsCovered() {
        for route in APIRoutes.all {
            // A route without a token takes no input: a wrong method on its path is the row it gets.
            let rows = BadInput.table.filter {
                ($0.method.rawValue == route.method || !route.authenticated) && Self.matches(route.path, $0.path)
            }
            #expect(!rows.isEmpty, "no bad input for \(route)")
        }
    }

    @Test("Each bad request gets its 4xx problem+json", arguments: TestDatabase.all)
    func table(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database, configure: { $0.requestsPerSecondPerAddress = 0 }) { fixture, client in
            let world = try await BadInputWorld.make(fixture, client: client)
            for row in BadInput.table {
                var headers = HTTPFields()
                if let authorization = world.authorization(row.credential) { headers[.authorization] = authorization }
                if let key = row.key { headers[HTTPField.Name("Idempotency-Key")!] = key }
                if let contentType = row.contentType { headers[.contentType] = contentType }
                let body: ByteBuffer? =
                    switch row.body {
                    case .none: nil
                    case .json(let text): ByteBuffer(string: text)
                    case .bytes(let bytes): ByteBuffer(bytes: bytes)
                    }
                let response = try await client.execute(
                    uri: world.path(row.path),
                    method: row.method,
                    headers: headers,
                    body: body
                )
                let problem = (try? ServerFixture.json(response)) ?? [:]
                let wrong = Self.mismatches(
                    row,
                    status: Int(response.status.code),
                    contentType: response.headers[.contentType],
                    problem: problem
                )
                #expect(
                    wrong.isEmpty,
                    "\(row): \(wrong.joined(separator: "; ")) — got \(response.status.code) \(problem)"
                )
            }
        }
    }

    /// What is wrong with an answer to `row`: nothing when it is the row's 4xx as a complete problem.
    static func mismatches(_ row: BadInput, status: Int, contentType: String?, problem: [String: Any]) -> [String] {
        var wrong: [String] = []
        if status != row.status { wrong.append("status \(status), not \(row.status)") }
        if status >= 500 { wrong.append("a server error") }
        if contentType != ProblemDetails.mediaType { wrong.append("Content-Type \(contentType ?? "none")") }
        if problem["status"] as? Int != status { wrong.append("no `status` member equal to the status") }
        if (problem["title"] as? String)?.isEmpty != false { wrong.append("no `title`") }
        if (problem["detail"] as? String)?.isEmpty != false { wrong.append("no `detail`") }
        let type = problem["type"] as? String ?? ""
        let expected = ProblemDetails.TypeURI.base + row.type
        // A type that ends in "-" is a family (`preview-…`).
        if row.type.hasSuffix("-") ? !type.hasPrefix(expected) : type != expected {
            wrong.append("type \(type), not \(expected)")
        }
        return wrong
    }

    /// Whether `path` (with a query, placeholders for ids) is an instance of the OpenAPI `template`.
    static func matches(_ template: String, _ path: String) -> Bool {
        let path = path.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let want = template.split(separator: "/")
        let have = path.split(separator: "/")
        guard want.count == have.count else { return false }
        return zip(want, have).allSatisfy { $0.hasPrefix("{") || $0 == $1 }
    }
}

/// The accounts and ids the table refers to: Ada (the fixture's user) with a revoked device, an expired
/// one and a laptop that made a share; Bob with a device and a share of his own.
struct BadInputWorld: Sendable {
    let fixture: ServerFixture
    let revokedApp: String
    let revokedShare: String
    let expiredApp: String
    let ids: [String: String]

    static func make(_ fixture: ServerFixture, client: some TestClientProtocol) async throws -> BadInputWorld {
        let database = fixture.context.database
        let revoked = try await database.createDevice(userID: fixture.user.id, name: "old phone")
        #expect(try await database.revokeDevice(id: revoked.device.id, userID: fixture.user.id))
        let expired = try await database.createDevice(
            userID: fixture.user.id,
            name: "borrowed",
            expiresAt: Date().addingTimeInterval(-3600)
        )
        let laptop = try await database.createDevice(userID: fixture.user.id, name: "laptop")
        let bob = try await database.createUser(handle: "bob", displayName: "Bob", passwordHash: nil)
        let bobDevice = try await database.createDevice(userID: bob.id, name: "bob's phone")

        func share(_ token: String, key: String, url: String) async throws -> (share: String, link: String) {
            let response = try await client.execute(
                uri: "/v1/shares",
                method: .post,
                headers: ServerFixture.headers(token: token, key: key),
                body: ServerFixture.body(#"{"url": "\#(url)"}"#)
            )
            #expect(response.status == .created)
            let json = try ServerFixture.json(response)
            return (
                (json["share"] as? [String: Any])?["id"] as? String ?? "",
                (json["link"] as? [String: Any])?["id"] as? String ?? ""
            )
        }
        let bobs = try await share(bobDevice.shareToken, key: "bob-1", url: "https://example.com/bob-only")
        let laptops = try await share(laptop.shareToken, key: "laptop-1", url: "https://example.com/from-laptop")
        _ = try await share(fixture.shareToken, key: "seeded", url: "https://example.com/seeded")
        return BadInputWorld(
            fixture: fixture,
            revokedApp: revoked.appToken,
            revokedShare: revoked.shareToken,
            expiredApp: expired.appToken,
            ids: [
                "{bobShare}": bobs.share, "{bobLink}": bobs.link, "{bobDevice}": bobDevice.device.id.uuidString,
                "{laptopShare}": laptops.share,
            ]
        )
    }

    func authorization(_ credential: BadInput.Credential) -> String? {
        switch credential {
        case .none: nil
        case .header(let value): value
        case .adaApp: "Bearer \(fixture.appToken)"
        case .adaShare: "Bearer \(fixture.shareToken)"
        case .revokedApp: "Bearer \(revokedApp)"
        case .revokedShare: "Bearer \(revokedShare)"
        case .expiredApp: "Bearer \(expiredApp)"
        }
    }

    func path(_ template: String) -> String {
        ids.reduce(template) { $0.replacingOccurrences(of: $1.key, with: $1.value) }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SharePipeProtocol
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
                ($0.method.rawValue == route.method || !route.authenticated)
                    && APIRoutes.path($0.path.prefix { $0 != "?" }, fits: route.path)
            }
            #expect(!rows.isEmpty, "no bad input for \(route)")
        }
    }

    @Test("Each bad request gets its 4xx problem+json", arguments: TestDatabase.all)
    func table(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database, configure: { $0.limits.requestsPerSecondPerAddress = 0 }) {
            fixture,
            client in
            let world = try await BadInputWorld.make(fixture, client: client)
            for row in BadInput.table {
                var headers = HTTPFields()
                if let authorization = world.authorization(row.credential) { headers[.authorization] = authorization }
                if let key = row.key { headers[HTTPField.Name("Idempotency-Key")!] = key }
                if let contentType = row.contentType { headers[.contentType] = contentType }
                for (name, value) in row.headers { headers[HTTPField.Name(name)!] = value }
                let body: ByteBuffer? =
                    switch row.body {
                    case .none: nil
                    case .json(let text): ByteBuffer(string: text)
                    case .bytes(let bytes): ByteBuffer(bytes: bytes)
                    }
                // A body over every route's limit may be answered before it all arrives, and the
                // connection then closed: such a row goes on a connection of its own, or every row
                // after it failed with "I/O on closed channel" on a loaded machine.
                let closes = (body?.readableBytes ?? 0) > ShareLimits.default.maxBodyBytes
                let response =
                    closes
                    ? try await client.executeOnItsOwnConnection(
                        uri: world.path(row.path),
                        method: row.method,
                        headers: headers,
                        body: body
                    )
                    : try await client.execute(
                        uri: world.path(row.path),
                        method: row.method,
                        headers: headers,
                        body: body
                    )
                let problem = (try? ServerFixture.json(response)) ?? [:]
                var wrong = Self.mismatches(
                    row,
                    status: Int(response.status.code),
                    contentType: response.headers[.contentType],
                    problem: problem
                )
                // Every 401 names its scheme (RFC 9110 §11.6.1), with RFC 6750's error for a refused token.
                if response.status.code == 401 {
                    let challenge = response.headers[.wwwAuthenticate] ?? ""
                    if !challenge.hasPrefix("Bearer realm=\"SharePipe\"") {
                        wrong.append("WWW-Authenticate “\(challenge)”")
                    }
                    if ["token-invalid", "token-revoked", "token-expired"].contains(row.type),
                        !challenge.contains(#"error="invalid_token""#)
                    {
                        wrong.append("WWW-Authenticate without invalid_token: “\(challenge)”")
                    }
                }
                #expect(
                    wrong.isEmpty,
                    "\(row): \(wrong.joined(separator: "; ")) — got \(response.status.code) \(problem)"
                )
            }
        }
    }

    @Test("HEAD answers as GET without the body, problems too; another method on a known path is 405 with Allow")
    func headAndWrongMethods() async throws {
        try await ServerFixture.run { fixture, client in
            let health = try await client.execute(uri: "/health", method: .head)
            #expect(health.status == .ok && health.body.readableBytes == 0)
            let headers = ServerFixture.headers(token: fixture.appToken, json: false)
            let me = try await client.execute(uri: "/v1/me", method: .get, headers: headers)
            let headMe = try await client.execute(uri: "/v1/me", method: .head, headers: headers)
            #expect(headMe.status == .ok && headMe.body.readableBytes == 0)
            #expect(headMe.headers[.contentLength] == String(me.body.readableBytes))
            let anonymous = try await client.execute(uri: "/v1/me", method: .head)
            #expect(anonymous.status == .unauthorized && anonymous.body.readableBytes == 0)
            #expect(anonymous.headers[.contentType] == ProblemDetails.mediaType)
            let events = try await client.execute(uri: "/v1/highlights/events", method: .head, headers: headers)
            #expect(events.status == .ok && events.headers[.contentType] == "text/event-stream")

            let post = try await client.execute(uri: "/health", method: .post)
            #expect(post.status == .methodNotAllowed && post.headers[.allow] == "GET, HEAD")
            let postPin = try await client.execute(uri: "/v1/highlights/\(UUID())/pin", method: .post, headers: headers)
            #expect(postPin.status == .methodNotAllowed && postPin.headers[.allow] == "PUT, DELETE")

            // The web page's paths and the image relay are the router's too: a form's path opened as a
            // link, or an image posted to, says which methods it takes; a path nobody has stays 404.
            let web: [(HTTPRequest.Method, String, allowed: String?)] = [
                (.get, "/signout", "POST"),
                (.get, "/highlights/\(UUID())/pin", "POST"),
                (.put, "/signin", "GET, HEAD, POST"),
                (.delete, "/", "GET, HEAD"),
                (.post, "/img/abc.def", "GET, HEAD"),
                (.get, "/highlights/\(UUID())/nothing", nil),
                (.post, "/no-such-page", nil),
            ]
            for (method, path, allowed) in web {
                let response = try await client.execute(uri: path, method: method, headers: [.accept: "text/html"])
                let status: HTTPResponse.Status = allowed == nil ? .notFound : .methodNotAllowed
                #expect(response.status == status, "\(method) \(path)")
                #expect(response.headers[.allow] == allowed, "\(method) \(path)")
                // The relay's paths are read by image loaders, not people: they get the problem as JSON.
                let type = path.hasPrefix("/img/") ? ProblemDetails.mediaType : "text/html; charset=utf-8"
                #expect(response.headers[.contentType] == type, "\(method) \(path)")
            }
        }
    }

    @Test("A body with malformed chunks, or cut short by a client that hangs up, is 400 malformed-body, not a 500")
    func brokenBodies() async throws {
        try await ServerFixture.run { fixture, client in
            let port = client.port
            let head = "Host: x\r\nAuthorization: Bearer \(fixture.shareToken)\r\nContent-Type: application/json\r\n"
            let requests = [
                (
                    "malformed chunk size",
                    "POST /v1/shares HTTP/1.1\r\n\(head)Idempotency-Key: chunks\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\nzz\r\n{}\r\n0\r\n\r\n",
                    false
                ),
                (
                    "body cut short",
                    "POST /v1/shares HTTP/1.1\r\n\(head)Idempotency-Key: short\r\nContent-Length: 100\r\n\r\n{\"url\": \"https://example.com/cut\"",
                    true
                ),
                (
                    "devices body cut short",
                    "POST /v1/devices HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"handle\": \"ada\"",
                    true
                ),
            ]
            for (name, request, hangUp) in requests {
                let answer = try await RawHTTPExchange.send(request, port: port, hangUp: hangUp)
                #expect(answer.hasPrefix("HTTP/1.1 400"), "\(name): \(answer.prefix(200))")
                #expect(answer.contains(ProblemDetails.TypeURI.malformedBody), "\(name): \(answer.prefix(400))")
            }
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get).body)
            #expect(!metrics.contains(#"status="500""#), "\(metrics)")
            #expect(try await fixture.context.database.shares(userID: fixture.user.id, before: nil, limit: 10).isEmpty)
        }
    }

    @Test("A request the HTTP parser refuses gets a problem too: 400 malformed-request, 431 for a huge head")
    func requestsTheParserRefuses() async throws {
        try await ServerFixture.run { _, client in
            let port = client.port
            let requests = [
                (
                    "a space in a header name", "GET /health HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n", 400,
                    "malformed-request"
                ),
                (
                    "a Content-Length that is not a number",
                    "POST /v1/shares HTTP/1.1\r\nHost: x\r\nContent-Length: ten\r\n\r\n",
                    400, "malformed-request"
                ),
                ("a request line that is not HTTP", "HELLO THERE\r\n\r\n", 400, "malformed-request"),
                (
                    "a 100 KiB header",
                    "GET /health HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 100 << 10))\r\n\r\n",
                    431, "request-head-too-large"
                ),
            ]
            for (name, request, status, slug) in requests {
                let answer = try await RawHTTPExchange.send(request, port: port)
                #expect(answer.hasPrefix("HTTP/1.1 \(status)"), "\(name): \(answer.prefix(200))")
                let head = answer.prefix { $0 != "{" }.lowercased()
                #expect(head.contains("content-type: application/problem+json"), "\(name): \(head)")
                #expect(head.contains("x-request-id: "), "\(name): \(head)")
                let body = try #require(answer.firstIndex(of: "{").map { answer[$0...] }, "\(name): no body")
                let problem = try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any]
                #expect(problem?["type"] as? String == ProblemDetails.TypeURI.base + slug, "\(name): \(body)")
                #expect(problem?["status"] as? Int == status, "\(name): \(body)")
                #expect((problem?["detail"] as? String)?.isEmpty == false, "\(name): \(body)")
            }
            // After a good request on the same connection: the good one is answered, then the problem.
            let pipelined = try await RawHTTPExchange.send(
                "GET /health HTTP/1.1\r\nHost: x\r\n\r\nHELLO THERE\r\n\r\n",
                port: port,
                untilClose: true
            )
            #expect(pipelined.hasPrefix("HTTP/1.1 200"), "\(pipelined.prefix(200))")
            #expect(pipelined.contains("HTTP/1.1 400") && pipelined.contains("malformed-request"), "\(pipelined)")
            // The server goes on answering.
            let health = try await RawHTTPExchange.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n", port: port)
            #expect(health.hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test("A body whose end cannot be found (Transfer-Encoding not ending in chunked) is refused, not run")
    func transferCodingsThatHideTheBodysEnd() async throws {
        try await ServerFixture.run { fixture, client in
            let port = client.port
            let other = try await fixture.context.database.createDevice(userID: fixture.user.id, name: "tablet")
            for coding in ["gzip", "identity", "chunked, gzip"] {
                let answer = try await RawHTTPExchange.send(
                    "DELETE /v1/devices/\(other.device.id) HTTP/1.1\r\nHost: x\r\n"
                        + "Authorization: Bearer \(fixture.appToken)\r\nTransfer-Encoding: \(coding)\r\n\r\n",
                    port: port,
                    untilClose: true
                )
                #expect(answer.hasPrefix("HTTP/1.1 400"), "\(coding): \(answer.prefix(300))")
                #expect(answer.contains(ProblemDetails.TypeURI.malformedRequest), "\(coding): \(answer)")
                #expect(answer.components(separatedBy: "X-Request-Id").count == 2, "one answer only: \(answer)")
            }
            let devices = try await fixture.context.database.devices(userID: fixture.user.id)
            #expect(devices.first { $0.id == other.device.id }?.revokedAt == nil, "the DELETE must not have run")
        }
    }

    @Test("CONNECT is 405 with Allow and the connection ends: the server is no proxy")
    func connectIsRefused() async throws {
        try await ServerFixture.run { _, client in
            let port = client.port
            let answer = try await RawHTTPExchange.send(
                "CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n",
                port: port,
                untilClose: true,
                timeout: .seconds(10)
            )
            #expect(answer.hasPrefix("HTTP/1.1 405"), "\(answer.prefix(300))")
            // PATCH too: /v1/conversations/{id} takes it.
            #expect(answer.lowercased().contains("allow: get, head, post, put, patch, delete"), "\(answer)")
            // NIO's encoder sends no body after a CONNECT, so the head says none is coming.
            #expect(!answer.lowercased().contains("content-type"), "\(answer)")
        }
    }

    @Test(
        "Answered before its body arrived, a request gets one answer and the connection ends; a huge declared body is 413 at once"
    )
    func earlyAnswersEndTheConnection() async throws {
        try await ServerFixture.run { fixture, client in
            let port = client.port
            // The body never comes: without the early end the connection would wait for it.
            let unknown = try await RawHTTPExchange.send(
                "POST /nope HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
                port: port,
                untilClose: true,
                timeout: .seconds(10)
            )
            #expect(unknown.hasPrefix("HTTP/1.1 404"), "\(unknown.prefix(300))")
            #expect(
                unknown.lowercased().contains("connection: close"),
                "the answer says the connection ends: \(unknown)"
            )
            #expect(unknown.components(separatedBy: "X-Request-Id").count == 2, "one answer only: \(unknown)")
            let huge = try await RawHTTPExchange.send(
                "POST /v1/devices HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{",
                port: port,
                untilClose: true,
                timeout: .seconds(10)
            )
            #expect(huge.hasPrefix("HTTP/1.1 413"), "\(huge.prefix(300))")
            #expect(huge.contains(ProblemDetails.TypeURI.bodyTooLarge), "\(huge)")
        }
    }

    @Test("Connection: close is obeyed in any case and among other options; requests after it are not served")
    func connectionCloseInAnyCase() async throws {
        try await ServerFixture.run { _, client in
            let port = client.port
            for value in ["Close", "TE, close", "keep-alive, CLOSE"] {
                // Without the close, the connection would stay open past the 10 s the exchange waits.
                let answer = try await RawHTTPExchange.send(
                    "GET /health HTTP/1.1\r\nHost: x\r\nConnection: \(value)\r\n\r\n"
                        + "GET /health HTTP/1.1\r\nHost: x\r\n\r\n",
                    port: port,
                    untilClose: true,
                    timeout: .seconds(10)
                )
                #expect(answer.hasPrefix("HTTP/1.1 200"), "\(value): \(answer.prefix(300))")
                #expect(answer.components(separatedBy: "X-Request-Id").count == 2, "\(value): one answer: \(answer)")
            }
        }
    }

    @Test(
        "Host is required once and well formed: a request without it (HTTP/1.1), with two or with a path in it is 400",
        arguments: [
            ("no Host", "GET /health HTTP/1.1\r\n\r\n", "no Host field"),
            ("two Hosts", "GET /health HTTP/1.1\r\nHost: a.example\r\nHost: b.example\r\n\r\n", "2 Host fields"),
            ("a path in Host", "GET /health HTTP/1.1\r\nHost: a.example/b\r\n\r\n", "not a host name"),
            ("a port that is not a number", "GET /health HTTP/1.1\r\nHost: a.example:http\r\n\r\n", "not a host name"),
        ]
    )
    func hostIsRequiredOnce(name: String, request: String, reason: String) async throws {
        try await ServerFixture.run { _, client in
            let port = client.port
            // A good request first, on the same connection: it is answered, then the refusal.
            let answer = try await RawHTTPExchange.send(
                "GET /health HTTP/1.1\r\nHost: x\r\n\r\n" + request,
                port: port,
                untilClose: true,
                timeout: .seconds(10)
            )
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(name): \(answer.prefix(300))")
            let refusal = try #require(
                answer.range(of: "HTTP/1.1 400").map { answer[$0.lowerBound...] },
                "\(name): \(answer)"
            )
            #expect(
                refusal.contains(ProblemDetails.TypeURI.malformedRequest) && refusal.contains(reason),
                "\(name): \(refusal)"
            )
            #expect(refusal.lowercased().contains("connection: close"), "\(name): \(refusal)")
            // Well-formed hosts are served: an IPv6 literal with a port, an empty Host, none at all in HTTP/1.0.
            for good in ["Host: [::1]:8080\r\n", "Host:\r\n"] {
                let served = try await RawHTTPExchange.send("GET /health HTTP/1.1\r\n\(good)\r\n", port: port)
                #expect(served.hasPrefix("HTTP/1.1 200"), "\(good): \(served.prefix(300))")
            }
        }
    }

    @Test("An HTTP/1.0 request is answered as HTTP/1.0 and the connection closes after it, keep-alive or not")
    func http10ClosesTheConnection() async throws {
        try await ServerFixture.run { _, client in
            let port = client.port
            for connection in ["", "Connection: keep-alive\r\n"] {
                // Without the close, the connection would stay open for the idle timeout, past the 10 s waited.
                let answer = try await RawHTTPExchange.send(
                    "GET /health HTTP/1.0\r\n\(connection)\r\nGET /health HTTP/1.0\r\n\r\n",
                    port: port,
                    untilClose: true,
                    timeout: .seconds(10)
                )
                #expect(answer.hasPrefix("HTTP/1.0 200"), "\(connection): \(answer.prefix(300))")
                #expect(answer.lowercased().contains("connection: close"), "\(connection): \(answer)")
                #expect(answer.components(separatedBy: "HTTP/1.").count == 2, "\(connection): one answer: \(answer)")
            }
            // A 1.0 client gets no 100 Continue (RFC 9110 §10.1.1): the expectation is ignored.
            let waiting = await #expect(throws: RawHTTPExchange.NoAnswer.self) {
                _ = try await RawHTTPExchange.send(
                    "POST /v1/devices HTTP/1.0\r\nContent-Type: application/json\r\nContent-Length: 2\r\n"
                        + "Expect: 100-continue\r\n\r\n",
                    port: port,
                    timeout: .seconds(3)
                )
            }
            #expect(waiting?.received.isEmpty == true, "\(String(describing: waiting))")
        }
    }

    @Test("A malformed chunk after a head a route answers without reading the body gets no second answer")
    func malformedBodyOfAnAnsweredRequest() async throws {
        try await ServerFixture.run { _, client in
            let port = client.port
            let answer = try await RawHTTPExchange.send(
                "GET /health HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\n",
                port: port,
                untilClose: true,
                timeout: .seconds(10)
            )
            #expect(answer.hasPrefix("HTTP/1.1 200"), "\(answer.prefix(300))")
            #expect(answer.components(separatedBy: "HTTP/1.1 ").count == 2, "one answer only: \(answer)")
        }
    }

    @Test("Expect: 100-continue is answered 100 Continue before the body is sent")
    func expectContinue() async throws {
        try await ServerFixture.run { _, client in
            let port = client.port
            let head =
                "POST /v1/devices HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                + "Content-Length: 2\r\nExpect: 100-continue\r\n\r\n"
            // The body is never sent, so no final answer comes: what arrived by the deadline is the 100.
            let waiting = await #expect(throws: RawHTTPExchange.NoAnswer.self) {
                _ = try await RawHTTPExchange.send(head, port: port, timeout: .seconds(3))
            }
            #expect(waiting?.received.hasPrefix("HTTP/1.1 100 Continue") == true, "\(String(describing: waiting))")
        }
    }

    @Test("A connection that never finishes its request's head is closed after the idle timeout")
    func idleConnections() async throws {
        try await ServerFixture.run(configure: { $0.listener.connectionIdleTimeout = .seconds(1) }) { _, client in
            let port = client.port
            // Far above the 1 s timeout on a slow machine, far below "never".
            let silent = try await RawHTTPExchange.send("", port: port, timeout: .seconds(30))
            let slowHead = try await RawHTTPExchange.send(
                "GET /health HTTP/1.1\r\nHost: x\r\n",
                port: port,
                timeout: .seconds(30)
            )
            #expect(silent.isEmpty && slowHead.isEmpty)
        }
        // A request within the timeout is answered as usual. (Against a timeout of 1 s, a server
        // starved by a thousand tests on two cores timed out a request it had been sent at once.)
        try await ServerFixture.run(configure: { $0.listener.connectionIdleTimeout = .seconds(10) }) { _, client in
            let answered = try await RawHTTPExchange.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n", port: client.port)
            #expect(answered.hasPrefix("HTTP/1.1 200"))
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
}

/// The accounts and ids the table refers to: Ada (the fixture's user) with a revoked device, an expired
/// one and a laptop that made a share; Bob with a device and a share of his own.
struct BadInputWorld: Sendable {
    let fixture: ServerFixture
    let revokedApp: String
    let revokedShare: String
    let expiredApp: String
    let ids: [String: String]

    static func make(_ fixture: ServerFixture, client: LiveClient) async throws -> BadInputWorld {
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
        // A partial upload each: Ada's to send bad bytes to, Bob's that Ada must not reach.
        for (user, sha) in [(fixture.user.id, BadInput.adaUpload), (bob.id, BadInput.bobUpload)] {
            _ = try await database.createUpload(UploadRequest(sha256: sha, size: 10), userID: user, quota: 1 << 30)
        }
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

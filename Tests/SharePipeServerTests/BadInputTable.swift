import Foundation
import HTTPTypes

/// Bad requests against every route of the API: each must get its 4xx problem, never a 5xx.
extension BadInput {
    static let validShare = #"{"url": "https://example.com/fine"}"#

    static let table: [BadInput] =
        tokens + shareBodies + otherBodies + urls + reading + ownership + preview + uploads + unauthenticatedRoutes

    /// Missing, malformed, unknown, revoked, expired and wrong-scope tokens, on every authenticated route.
    static let tokens: [BadInput] = {
        var rows: [BadInput] = []
        let routes: [(HTTPRequest.Method, String)] = [
            (.get, "/v1/shares"), (.get, "/v1/shares/{bobShare}"), (.get, "/v1/links/{bobLink}"),
            (.get, "/v1/me"), (.get, "/v1/devices"), (.delete, "/v1/devices/{bobDevice}"),
            (.get, "/v1/preview?url=https://example.com/"),
            (.put, "/v1/shares/{bobShare}/public"), (.delete, "/v1/shares/{bobShare}/public"),
            (.post, "/v1/conversations"), (.get, "/v1/conversations"), (.get, "/v1/conversations/\(unknown)"),
            (.patch, "/v1/conversations/\(unknown)"), (.post, "/v1/conversations/\(unknown)/members"),
            (.delete, "/v1/conversations/\(unknown)/members/bob"), (.get, "/v1/highlights"),
            (.get, "/v1/highlights/events"), (.put, "/v1/highlights/\(unknown)/pin"),
            (.delete, "/v1/highlights/\(unknown)/pin"), (.post, "/v1/highlights/\(unknown)/remove"),
            (.post, "/v1/highlights/\(unknown)/feedback"), (.post, "/v1/highlights/\(unknown)/reply"),
            (.delete, "/v1/highlights/\(unknown)/remove"), (.get, "/v1/highlights/removed"),
            (.post, "/v1/highlights/\(unknown)/retry"), (.get, "/v1/search?q=bread"),
        ]
        for (method, path) in routes {
            rows += [
                BadInput(method, path, .none, 401, "token-missing"),
                BadInput(method, path, .header("Basic YWRhOnB3"), 401, "token-missing"),
                BadInput(method, path, .header("Bearer"), 401, "token-missing"),
                BadInput(method, path, .header("Bearer  "), 401, "token-missing"),
                BadInput(method, path, .header("Bearer spa_not-a-token"), 401, "token-invalid"),
                BadInput(method, path, .header("Bearer " + String(repeating: "x", count: 4000)), 401, "token-invalid"),
                BadInput(method, path, .revokedApp, 401, "token-revoked"),
                BadInput(method, path, .expiredApp, 401, "token-expired"),
            ]
        }
        // A share token may only create shares and read its device's shares.
        for (method, path) in routes where !path.hasPrefix("/v1/shares") {
            rows.append(BadInput(method, path, .adaShare, 403, "insufficient-scope"))
        }
        rows += [
            share(validShare, as: .none, 401, "token-missing"),
            share(validShare, as: .header("Bearer sps_not-a-token"), 401, "token-invalid"),
            share(validShare, as: .revokedShare, 401, "token-revoked"),
            share(validShare, as: .revokedApp, 401, "token-revoked"),
        ]
        return rows
    }()

    /// `POST /v1/shares` bodies and headers: malformed JSON, wrong types, oversize, keys, media types.
    /// An id nobody has.
    static let unknown = UUID().uuidString

    /// SHA-256s of partial 10-byte uploads of Ada's and Bob's (``BadInputWorld``), and one nobody has.
    static let adaUpload = String(repeating: "a", count: 64)
    static let bobUpload = String(repeating: "b", count: 64)
    static let noUpload = String(repeating: "c", count: 64)

    /// `/v1/uploads`: bad announcements, bad bytes, offsets and ids, other users' uploads.
    static let uploads: [BadInput] = {
        let announce = { (json: String, status: Int, type: String) in
            BadInput(.post, "/v1/uploads", .adaShare, body: .json(json), status, type)
        }
        let sha = adaUpload
        var rows: [BadInput] = [
            announce(#"{"sha256": "#, 400, "malformed-json"),
            announce(#"{"sha256": 1, "size": "ten"}"#, 400, "wrong-field-type"),
            announce(#"{"size": 10}"#, 422, "validation-failed"),
            announce(#"{"sha256": "\#(sha.uppercased())", "size": 10}"#, 422, "validation-failed"),
            announce(#"{"sha256": "\#(sha.prefix(63))", "size": 10}"#, 422, "validation-failed"),
            announce(#"{"sha256": "\#(noUpload)", "size": 0}"#, 422, "validation-failed"),
            announce(#"{"sha256": "\#(noUpload)", "size": -5}"#, 422, "validation-failed"),
            announce(#"{"sha256": "\#(noUpload)", "size": 10, "name": "../etc/passwd"}"#, 422, "validation-failed"),
            announce(#"{"sha256": "\#(noUpload)", "size": 10, "name": "a\u0000b"}"#, 422, "validation-failed"),
            announce(#"{"sha256": "\#(noUpload)", "size": 10, "name": ""}"#, 422, "validation-failed"),
            announce(#"{"sha256": "\#(noUpload)", "size": 1000000000000}"#, 413, "file-too-large"),
            // The same bytes announced with another size.
            announce(#"{"sha256": "\#(sha)", "size": 11}"#, 409, "state-conflict"),
            BadInput(.post, "/v1/uploads", .adaShare, contentType: "text/plain", body: .json("{}"), 415, "unsupported-media-type"),
            BadInput(.post, "/v1/uploads", .none, body: .json("{}"), 401, "token-missing"),
            BadInput(.post, "/v1/uploads", .revokedShare, body: .json("{}"), 401, "token-revoked"),
        ]
        let patch = { (path: String, offset: String?, body: [UInt8], status: Int, type: String) -> BadInput in
            let row = BadInput(
                .patch,
                path,
                .adaShare,
                contentType: "application/offset+octet-stream",
                body: .bytes(body),
                status,
                type
            )
            return offset.map { row.with("Upload-Offset", $0) } ?? row
        }
        rows += [
            patch("/v1/uploads/\(noUpload)", "0", [1, 2], 404, "not-found"),
            patch("/v1/uploads/\(bobUpload)", "0", [1, 2], 404, "not-found"),
            patch("/v1/uploads/not-hex", "0", [1, 2], 404, "not-found"),
            patch("/v1/uploads/\(sha)", "5", [1, 2], 409, "upload-offset-mismatch"),
            patch("/v1/uploads/\(sha)", "999999999999", [1, 2], 409, "upload-offset-mismatch"),
            patch("/v1/uploads/\(sha)", nil, [1, 2], 422, "validation-failed"),
            patch("/v1/uploads/\(sha)", "-1", [1, 2], 422, "validation-failed"),
            patch("/v1/uploads/\(sha)", "+0", [1, 2], 422, "validation-failed"),
            patch("/v1/uploads/\(sha)", "ten", [1, 2], 422, "validation-failed"),
            patch("/v1/uploads/\(sha)", String(repeating: "9", count: 19), [1, 2], 422, "validation-failed"),
            // Eleven bytes for a ten-byte file: refused before any is stored.
            patch("/v1/uploads/\(sha)", "0", Array(repeating: 7, count: 11), 413, "upload-past-size"),
            BadInput(.patch, "/v1/uploads/\(sha)", .adaShare, body: .json("{}"), 415, "unsupported-media-type")
                .with("Upload-Offset", "0"),
            BadInput(.patch, "/v1/uploads/\(sha)", .none, body: .bytes([1]), 401, "token-missing").with("Upload-Offset", "0"),
        ]
        for path in [noUpload, bobUpload, "not-hex", sha.uppercased()] {
            rows.append(BadInput(.get, "/v1/uploads/\(path)", .adaShare, 404, "not-found"))
            rows.append(BadInput(.delete, "/v1/uploads/\(path)", .adaApp, 404, "not-found"))
            rows.append(BadInput(.get, "/v1/uploads/\(path)/content", .adaApp, 404, "not-found"))
        }
        // A share's files: another user's share, no such share or index, a share token.
        for path in ["{bobShare}/attachments/0", "\(unknown)/attachments/0", "not-a-uuid/attachments/0", "{bobShare}/attachments/x",
                     "{bobShare}/attachments/999"] {
            rows.append(BadInput(.get, "/v1/shares/\(path)", 404, "not-found"))
        }
        rows.append(BadInput(.get, "/v1/shares/{bobShare}/attachments/0", .adaShare, 403, "insufficient-scope"))
        rows.append(BadInput(.get, "/v1/shares/{bobShare}/attachments/0", .none, 401, "token-missing"))
        // Ada's own upload is not complete: nothing to read back yet.
        rows.append(BadInput(.get, "/v1/uploads/\(sha)/content", .adaApp, 409, "state-conflict"))
        for (method, path) in [
            (HTTPRequest.Method.get, "/v1/uploads/\(sha)"), (.delete, "/v1/uploads/\(sha)"), (.get, "/v1/uploads/\(sha)/content"),
        ] {
            rows.append(BadInput(method, path, .none, 401, "token-missing"))
            rows.append(BadInput(method, path, .expiredApp, 401, "token-expired"))
        }
        return rows
    }()

    /// Bodies of the other routes that take one.
    static let otherBodies: [BadInput] = [
        BadInput(.post, "/v1/conversations", body: .json(#"{"members": "#), 400, "malformed-json"),
        BadInput(.post, "/v1/conversations", body: .json("[]"), 400, "wrong-field-type"),
        BadInput(.post, "/v1/devices", .none, body: .json(#"{"handle": "#), 400, "malformed-json"),
        BadInput(.post, "/v1/devices", .none, body: .json(#"{"handle": 1, "password": 2}"#), 400, "wrong-field-type"),
        // Over each route's body limit (1, 4 and 16 KiB): 413, as for shares.
        BadInput(.post, "/v1/devices", .none, body: .json(padded(5_000)), 413, "body-too-large"),
        BadInput(.post, "/v1/conversations", body: .json(padded(17_000)), 413, "body-too-large"),
        BadInput(.patch, "/v1/conversations/\(unknown)", body: .json(padded(2_000)), 413, "body-too-large"),
        BadInput(.post, "/v1/highlights/\(unknown)/reply", body: .json(padded(17_000)), 413, "body-too-large"),
        // A NUL in any text: PostgreSQL refuses it (a 500 before), SQLite cut the text at it.
        BadInput(
            .post,
            "/v1/conversations",
            body: .json(#"{"members": ["bob", "cat"], "title": "ab\u0000cd"}"#),
            422,
            "validation-failed"
        ),
        BadInput(
            .post,
            "/v1/devices",
            .none,
            body: .json(#"{"handle": "ada", "password": "x", "name": "ph\u0000one"}"#),
            422,
            "validation-failed"
        ),
        BadInput(
            .post,
            "/v1/highlights/\(unknown)/remove",
            body: .json(#"{"reason": "a\u0000b"}"#),
            422,
            "validation-failed"
        ),
        BadInput(
            .post,
            "/v1/highlights/\(unknown)/reply",
            body: .json(#"{"note": "a\u0000b"}"#),
            422,
            "validation-failed"
        ),
        // Where a decoder could miss the escape: the same member twice (refused as such before any
        // value is read), or UTF-16 text (0x00 bytes).
        BadInput(
            .post,
            "/v1/conversations",
            body: .json(#"{"members": ["bob", "cat"], "title": "a\u0000", "title": "b"}"#),
            400,
            "malformed-json"
        ),
        BadInput(
            .post,
            "/v1/conversations",
            body: .bytes(utf16LE(#"{"members": ["bob", "cat"], "title": "ab\u0000cd"}"#)),
            400,
            "malformed-json"
        ),
        // The right JSON type, but not a value the member takes.
        BadInput(
            .post,
            "/v1/highlights/\(unknown)/reply",
            body: .json(#"{"conversationId": "nope"}"#),
            422,
            "validation-failed"
        ),
    ]

    /// `text` as UTF-16 little-endian bytes, without a byte-order mark.
    static func utf16LE(_ text: String) -> [UInt8] {
        text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
    }

    /// A JSON object of about `bytes` bytes.
    static func padded(_ bytes: Int) -> String {
        #"{"pad": "\#(String(repeating: "x", count: bytes))"}"#
    }

    static let shareBodies: [BadInput] = [
        share(validShare, key: nil, 400, "idempotency-key-missing"),
        share(validShare, key: "", 400, "idempotency-key-invalid"),
        share(validShare, key: #""""#, 400, "idempotency-key-invalid"),
        share(validShare, key: "a key", 400, "idempotency-key-invalid"),
        share(validShare, key: String(repeating: "k", count: 256), 400, "idempotency-key-invalid"),
        share(#"{"url": "https://example.com/other"}"#, key: "seeded", 422, "idempotency-key-reused"),
        BadInput(
            .post,
            "/v1/shares",
            .adaShare,
            key: "k",
            contentType: "text/plain",
            body: .json(validShare),
            415,
            "unsupported-media-type"
        ),
        BadInput(
            .post,
            "/v1/shares",
            .adaShare,
            key: "k",
            contentType: "application/json; charset=latin1",
            body: .json(validShare),
            415,
            "unsupported-media-type"
        ),
        BadInput(
            .post,
            "/v1/shares",
            .adaShare,
            key: "k",
            contentType: "application/x-www-form-urlencoded",
            body: .json("url=https%3A%2F%2Fexample.com"),
            415,
            "unsupported-media-type"
        ),
        BadInput(.post, "/v1/shares", .adaShare, key: "k", body: .json(""), 400, "malformed-json"),
        share(#"{"url": "https://exa"#, 400, "malformed-json"),
        share(#"{'url': 'https://example.com/'}"#, 400, "malformed-json"),
        // Well-formed JSON, but not an object.
        share("null", 400, "wrong-field-type"),
        share(#"["https://example.com/"]"#, 400, "wrong-field-type"),
        share(#""https://example.com/""#, 400, "wrong-field-type"),
        share(String(repeating: "[", count: 10_000), 400, "malformed-json"),
        BadInput(
            .post,
            "/v1/shares",
            .adaShare,
            key: "k",
            body: .bytes([0x7B, 0x22, 0xFF, 0xFE, 0x22, 0x7D]),
            400,
            "malformed-json"
        ),
        share(#"{"url": 42}"#, 400, "wrong-field-type"),
        share(#"{"url": ["https://example.com/"]}"#, 400, "wrong-field-type"),
        share(#"{"url": null}"#, 422, "validation-failed"),  // null is as good as absent
        share(#"{"url": "https://example.com/", "note": 7}"#, 400, "wrong-field-type"),
        share(#"{"url": "https://example.com/", "recipients": "@bob"}"#, 400, "wrong-field-type"),
        share(#"{"url": "https://example.com/", "provided": "title"}"#, 400, "wrong-field-type"),
        share(#"{"url": "https://example.com/", "provided": {"title": false}}"#, 400, "wrong-field-type"),
        share(#"{"text": {"url": "https://example.com/"}}"#, 400, "wrong-field-type"),
        share(
            #"{"url": "https://example.com/", "note": "\#(String(repeating: "n", count: 70_000))"}"#,
            413,
            "body-too-large"
        ),
        share(
            #"{"url": "https://example.com/", "note": "\#(String(repeating: "n", count: 2_001))"}"#,
            422,
            "validation-failed"
        ),
        share(
            #"{"url": "https://example.com/", "provided": {"title": "\#(String(repeating: "t", count: 301))"}}"#,
            422,
            "validation-failed"
        ),
        share(
            #"{"url": "https://example.com/", "recipients": [\#((0...50).map { "\"@u\($0)\"" }.joined(separator: ","))]}"#,
            422,
            "validation-failed"
        ),
        share(#"{"url": "https://example.com/", "recipients": ["not a recipient"]}"#, 422, "validation-failed"),
        share("{}", 422, "validation-failed"),
        // A member named twice: one reader would take the first, another the last.
        share(#"{"url": "https://example.com/a", "url": "http://127.0.0.1/"}"#, 400, "malformed-json"),
        share(#"{"url": "https://example.com/a", "\u0075rl": "http://127.0.0.1/"}"#, 400, "malformed-json"),
        share(#"{"url": "https://example.com/a", "provided": {"title": "a", "title": "b"}}"#, 400, "malformed-json"),
        share(#"{"text": "no link in here"}"#, 422, "validation-failed"),
        share(#"{"text": "\#(String(repeating: "t ", count: 5_001))https://example.com/"}"#, 422, "validation-failed"),
    ]

    /// URLs a share must not carry.
    static let urls: [BadInput] = [
        "javascript:alert(1)", "JavaScript:alert(document.cookie)", "file:///etc/passwd", "ftp://example.com/file",
        "data:text/html,<script>alert(1)</script>", "mailto:ada@example.com", "https://", "https:///path",
        "http://user:password@example.com/", "https://user@example.com/", "/relative/path", "example.com",
        "https://example.com:99999/", "https://example.com:0/", "http://exa mple.com/", "https://example.com/\u{0007}",
        "", "   ", "https://example.com/" + String(repeating: "a", count: 2_100),
        // Hosts the URL parser takes but no link can have (the normaliser refuses them).
        "https://example..com/", "https://.example.com/", "https://./",
        // Brackets around no IPv6 address, which Foundation's parser takes.
        "https://[ca8ae::9c22]/", "https://[54beafd20f90]:2720/", "https://[1:2:3]/", "https://[::1%25eth0]/",
    ].map { share(#"{"url": \#(jsonLiteral($0))}"#, 422, "validation-failed") }

    /// `GET /v1/shares` parameters.
    static let reading: [BadInput] = [
        BadInput(.get, "/v1/shares?limit=0", 422, "validation-failed"),
        BadInput(.get, "/v1/shares?limit=-1", 422, "validation-failed"),
        BadInput(.get, "/v1/shares?limit=ten", 422, "validation-failed"),
        BadInput(.get, "/v1/shares?limit=99999999999999999999999", 422, "validation-failed"),
        BadInput(.get, "/v1/shares?limit=", 422, "validation-failed"),
        BadInput(.get, "/v1/shares?cursor=garbage", 422, "validation-failed"),
        BadInput(.get, "/v1/shares?cursor=%FF%FE", 422, "validation-failed"),
        BadInput(.get, "/v1/shares?limit=10&cursor=" + String(repeating: "A", count: 500), 422, "validation-failed"),
        // Past the document's maximum: refused, not lowered to a page the client did not ask for.
        BadInput(.get, "/v1/shares?limit=101", 422, "validation-failed"),
        BadInput(.get, "/v1/conversations?limit=101", 422, "validation-failed"),
        BadInput(.get, "/v1/conversations/\(unknown)?limit=101", 422, "validation-failed"),
        BadInput(.get, "/v1/highlights?limit=101", 422, "validation-failed"),
        BadInput(.get, "/v1/highlights?cursor=garbage", 422, "validation-failed"),
        BadInput(.get, "/v1/highlights/removed?limit=0", 422, "validation-failed"),
        BadInput(.get, "/v1/highlights/removed?limit=101", 422, "validation-failed"),
        // An event id is digits; an empty one, or one the header overrides, still has to be one.
        BadInput(.get, "/v1/highlights/events?lastEventId=", 422, "validation-failed"),
        BadInput(.get, "/v1/highlights/events?lastEventId=%2B5", 422, "validation-failed"),
        BadInput(.get, "/v1/highlights/events?lastEventId=x", 422, "validation-failed"),
        // A search needs a word; its filters must name what exists.
        BadInput(.get, "/v1/search", 422, "validation-failed"),
        BadInput(.get, "/v1/search?q=", 422, "validation-failed"),
        BadInput(.get, "/v1/search?q=%22%2A%28%29%3A", 422, "validation-failed"),
        BadInput(.get, "/v1/search?q=" + String(repeating: "bread%20", count: 40), 422, "validation-failed"),
        BadInput(.get, "/v1/search?q=bread&from=nobody", 422, "validation-failed"),
        BadInput(.get, "/v1/search?q=bread&conversation=not-a-uuid", 422, "validation-failed"),
        BadInput(.get, "/v1/search?q=bread&site=%2F%2F", 422, "validation-failed"),
        BadInput(.get, "/v1/search?q=bread&cursor=garbage", 422, "validation-failed"),
        BadInput(.get, "/v1/search?q=bread&limit=101", 422, "validation-failed"),
    ]

    /// Another user's ids, unknown ids, ids that are no UUID: all the same 404.
    static let ownership: [BadInput] = {
        var rows: [BadInput] = []
        for id in [
            "{bobShare}", "00000000-0000-0000-0000-000000000000", UUID().uuidString, "not-a-uuid", "1", "%00",
            "..%2F..%2Fetc%2Fpasswd", String(repeating: "9", count: 300),
        ] {
            rows.append(BadInput(.get, "/v1/shares/\(id)", 404, "not-found"))
            rows.append(BadInput(.get, "/v1/shares/\(id)", .adaShare, 404, "not-found"))
            rows.append(BadInput(.delete, "/v1/devices/\(id)", 404, "not-found"))
        }
        for id in ["{bobLink}", UUID().uuidString, "not-a-uuid", "%00"] {
            rows.append(BadInput(.get, "/v1/links/\(id)", 404, "not-found"))
        }
        rows.append(BadInput(.delete, "/v1/devices/{bobDevice}", 404, "not-found"))
        // Bob's share cannot be made public by Ada; conversations and highlights that are not hers.
        for id in ["{bobShare}", unknown, "not-a-uuid"] {
            rows.append(BadInput(.put, "/v1/shares/\(id)/public", 404, "not-found"))
            rows.append(BadInput(.delete, "/v1/shares/\(id)/public", 404, "not-found"))
        }
        for id in [unknown, "not-a-uuid"] {
            rows.append(BadInput(.get, "/v1/conversations/\(id)", 404, "not-found"))
            rows.append(BadInput(.put, "/v1/highlights/\(id)/pin", 404, "not-found"))
            rows.append(BadInput(.delete, "/v1/highlights/\(id)/pin", 404, "not-found"))
            rows.append(BadInput(.post, "/v1/highlights/\(id)/remove", 404, "not-found"))
            rows.append(BadInput(.delete, "/v1/highlights/\(id)/remove", 404, "not-found"))
            rows.append(BadInput(.post, "/v1/highlights/\(id)/retry", 404, "not-found"))
        }
        // A share token reads only the shares of its own device, not those of Ada's laptop.
        rows.append(BadInput(.get, "/v1/shares/{laptopShare}", .adaShare, 404, "not-found"))
        return rows
    }()

    /// `GET /v1/preview?url=`: only public http(s) pages.
    static let preview: [BadInput] = {
        var rows = [
            "", "url=", "url=javascript:alert(1)", "url=file:///etc/passwd", "url=ftp://example.com/",
            "url=https://", "url=%2Frelative", "url=example.com", "url=data:text/html,hi",
            // The share's reader, so the share's rules: no host that ends in a number and spells no IPv4
            // address, no brackets around what is not IPv6.
            "url=https%3A%2F%2F1.2.3.4.5%2F", "url=https%3A%2F%2F%5Bca8ae%3A%3A9c22%5D%2F",
            "url=http%3A%2F%2Fuser%3Apw%40example.com%2F",
        ]
        .map { BadInput(.get, "/v1/preview?\($0)", 422, "validation-failed") }
        for url in [
            "http://127.0.0.1/", "http://localhost/", "http://169.254.169.254/latest/meta-data/",
            "http://10.0.0.1/", "http://[::1]/", "http://[::ffff:127.0.0.1]/", "http://example.com:22/",
        ] {
            let encoded = url.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? url
            rows.append(BadInput(.get, "/v1/preview?url=\(encoded)", 422, "preview-"))
        }
        return rows
    }()

    /// Routes without a token have no input to get wrong but the method and the path: a path the API
    /// has with another method is 405 (with `Allow`), a path it does not have 404.
    static let unauthenticatedRoutes: [BadInput] = [
        BadInput(.post, "/health", .none, body: .json("{}"), 405, "method-not-allowed"),
        BadInput(.delete, "/ready", .none, 405, "method-not-allowed"),
        BadInput(.put, "/openapi.json", .none, body: .json("{}"), 405, "method-not-allowed"),
        BadInput(.post, "/metrics", .none, 405, "method-not-allowed"),
        BadInput(.post, "/oembed", .none, 405, "method-not-allowed"),
        BadInput(.get, "/oembed", .none, 404, "not-found"),
        BadInput(.get, "/oembed?url=http%3A%2F%2Fx%2Fs%2Fnope", .none, 404, "not-found"),
        // A NUL decoded from the page URL's own escape: PostgreSQL refused it as text (a 500).
        BadInput(.get, "/oembed?url=http%3A%2F%2Fx%2Fs%2F%2500", .none, 404, "not-found"),
        BadInput(.put, "/v1/shares", .adaApp, body: .json(validShare), 405, "method-not-allowed"),
        BadInput(.delete, "/v1/shares/{bobShare}", .adaApp, 405, "method-not-allowed"),
        BadInput(.get, "/v1/nothing-here", .adaApp, 404, "not-found"),
        BadInput(.get, "/v1/shares/a/b", .adaApp, 404, "not-found"),
    ]

    static func jsonLiteral(_ text: String) -> String {
        String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import SharePipeProtocol
import Testing

@testable import SharePipeServer

/// `POST /v1/shares` and `GET /v1/preview` read a URL with one reader (`WebURLRules`).
@Suite("One URL reader for shares and previews")
struct URLReaderTests {
    @Test(
        "A bracketed IPv6 host with an IPv4 tail is a URL for a share and for a preview; brackets around no IPv6 address are not",
        arguments: TestDatabase.all
    )
    func bracketedIPv6(database: TestDatabase) async throws {
        try await ServerFixture.run(on: database) { fixture, client in
            let share = try await client.execute(
                uri: "/v1/shares",
                method: .post,
                headers: ServerFixture.headers(token: fixture.shareToken, key: UUID().uuidString),
                body: ServerFixture.body(#"{"url": "http://[::ffff:93.184.216.34]/"}"#)
            )
            #expect(share.status == .created, "\(String(buffer: share.body))")
            #expect(
                (try ServerFixture.json(share)["share"] as? [String: Any])?["url"] as? String
                    == "http://[::ffff:93.184.216.34]/"
            )

            // The preview reads it too: what refuses this one is the address policy (a mapped loopback).
            let preview = try await client.execute(
                uri: "/v1/preview?url=http%3A%2F%2F%5B%3A%3Affff%3A127.0.0.1%5D%2F",
                method: .get,
                headers: ServerFixture.headers(token: fixture.appToken, json: false)
            )
            #expect(preview.status == .unprocessableContent)
            #expect(preview.headers[.contentType] == "application/problem+json")
            #expect((try ServerFixture.json(preview)["type"] as? String)?.hasSuffix("preview-blockedAddress") == true)

            for url in ["https://[ca8ae::9c22]/", "https://[54beafd20f90]:2720/", "https://[v1.x]/"] {
                let refused = try await client.execute(
                    uri: "/v1/shares",
                    method: .post,
                    headers: ServerFixture.headers(token: fixture.shareToken, key: UUID().uuidString),
                    body: ServerFixture.body(#"{"url": "\#(url)"}"#)
                )
                #expect(refused.status == .unprocessableContent, "\(url)")
                #expect(refused.headers[.contentType] == "application/problem+json")
                #expect(
                    (try ServerFixture.json(refused)["errors"] as? [[String: Any]])?.first?["pointer"] as? String
                        == "/url"
                )
                let encoded = url.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                let previewRefused = try await client.execute(
                    uri: "/v1/preview?url=\(encoded)",
                    method: .get,
                    headers: ServerFixture.headers(token: fixture.appToken, json: false)
                )
                #expect(previewRefused.status == .unprocessableContent, "\(url)")
                #expect(
                    try ServerFixture.json(previewRefused)["type"] as? String == ProblemDetails.TypeURI.validationFailed
                )
            }
        }
    }
}

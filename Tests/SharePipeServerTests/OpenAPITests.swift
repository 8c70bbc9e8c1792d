import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SharePipeServer
import Testing

@Suite("The OpenAPI document")
struct OpenAPITests {
    static func operations() throws -> Set<String> {
        let document = try #require(try JSONSerialization.jsonObject(with: APIRoutes.openAPIDocument) as? [String: Any])
        #expect(document["openapi"] as? String == "3.2.0")
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        return Set(paths.flatMap { path, operations in operations.keys.map { "\($0.uppercased()) \(path)" } })
    }

    @Test("Names exactly the routes the server has")
    func matchesTheRoutes() throws {
        #expect(try Self.operations() == Set(APIRoutes.all.map(\.description)))
    }

    /// A client generated from the document must know every status the server can answer: the rate
    /// limit (429) and an unreachable database (503) on every `/v1/` route, 413 and 415 wherever a
    /// body is read.
    @Test("Every operation lists the statuses every route of its kind can answer")
    func listsTheSharedStatuses() throws {
        let document = try #require(try JSONSerialization.jsonObject(with: APIRoutes.openAPIDocument) as? [String: Any])
        let paths = try #require(document["paths"] as? [String: [String: Any]])
        for (path, operations) in paths {
            for (method, value) in operations {
                guard let operation = value as? [String: Any] else { continue }
                let responses = Set((operation["responses"] as? [String: Any] ?? [:]).keys)
                var expected: Set<String> = []
                if path.hasPrefix("/v1/") { expected.formUnion(["429", "503"]) }
                if operation["requestBody"] != nil { expected.formUnion(["413", "415"]) }
                #expect(
                    expected.isSubset(of: responses),
                    "\(method.uppercased()) \(path) lacks \(expected.subtracting(responses).sorted())"
                )
            }
        }
    }

    @Test(
        "Every route answers: protected ones 401 without a token, open reads 200 (oEmbed 404 without a page), open posts 415 without a body; /openapi.json serves the document"
    )
    func routerAnswersEveryRoute() async throws {
        try await ServerFixture.run { _, client in
            for route in APIRoutes.all {
                let uri = route.path.replacingOccurrences(of: "{id}", with: UUID().uuidString)
                    .replacingOccurrences(of: "{handle}", with: "ada")
                    .replacingOccurrences(of: "{sha256}", with: String(repeating: "0", count: 64))
                    .replacingOccurrences(of: "{index}", with: "0")
                let response = try await client.execute(
                    uri: uri,
                    method: HTTPRequest.Method(rawValue: route.method)!,
                    headers: [:]
                )
                let expected: HTTPResponse.Status =
                    if route.authenticated {
                        .unauthorized
                    } else if route.path == "/oembed" {
                        .notFound  // no url names a public page
                    } else {
                        route.method == "GET" ? .ok : .unsupportedMediaType
                    }
                #expect(response.status == expected, "\(route)")
            }
            let served = try await client.execute(uri: "/openapi.json", method: .get)
            #expect(ServerFixture.bytes(served) == Array(APIRoutes.openAPIDocument))
        }
    }
}

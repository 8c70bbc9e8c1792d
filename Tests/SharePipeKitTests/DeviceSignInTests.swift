import Foundation
import LinkPreviewTesting
import SharePipeKit
import SharePipeProtocol
import Testing

/// Signing in against real HTTP servers on loopback: one answering as the SharePipe server does, and
/// ones that are not SharePipe servers.
struct DeviceSignInTests {
    static func failure(_ response: LoopbackResponse) async throws -> (DeviceSignIn.Failure, LoopbackHTTPServer) {
        let server = try await LoopbackHTTPServer.start { request in
            request.path == "/v1/devices" ? response : LoopbackResponse(status: 200)
        }
        var failure: DeviceSignIn.Failure?
        do {
            _ = try await DeviceSignIn(server: server.url("/")).signIn(handle: "ada", password: "pw", deviceName: "d")
        } catch let error as DeviceSignIn.Failure {
            failure = error
        }
        try await server.shutdown()
        return (try #require(failure), server)
    }

    @Test("The server's DeviceCreated answer gives the device, the account and both tokens")
    func signsIn() async throws {
        let created = DeviceCreated(
            device: Device(id: UUID(), userID: UUID(), name: "d", createdAt: Date(timeIntervalSince1970: 1_700_000)),
            appToken: "spa_app",
            shareToken: "sps_share"
        )
        let body = try Array(APIJSON.encoder().encode(created))
        let server = try await LoopbackHTTPServer.start { request in
            request.path == "/v1/devices" && request.method == "POST"
                ? LoopbackResponse(status: 201, headers: [("Content-Type", "application/json")], body: .whole(body))
                : LoopbackResponse(status: 404)
        }
        let signIn = DeviceSignIn(server: server.url("/"))
        let result = try await signIn.signIn(handle: "ada", password: "pw", deviceName: "d")
        try await server.shutdown()
        #expect(result.deviceID == created.device.id && result.userID == created.device.userID)
        #expect(result.appToken == "spa_app" && result.shareToken == "sps_share")
    }

    @Test("A redirect is named, not followed")
    func redirect() async throws {
        let (failure, server) = try await Self.failure(LoopbackResponse(status: 301, headers: [("Location", "/moved")]))
        #expect(failure.message.contains("redirected to /moved"), "\(failure.message)")
        #expect(server.requestCount("/moved") == 0)
    }

    @Test("An answer no SharePipe server gives says to check the URL; a server's own detail is one sentence")
    func notSharePipe() async throws {
        let (plain, _) = try await Self.failure(LoopbackResponse(status: 501))
        #expect(plain.message.contains("not how a SharePipe server answers"), "\(plain.message)")
        let problem = LoopbackResponse(
            status: 404,
            headers: [("Content-Type", "application/problem+json")],
            body: .whole(Array(#"{"title":"Not found","detail":"No such route; see /openapi.json."}"#.utf8))
        )
        let (refused, _) = try await Self.failure(problem)
        #expect(refused.message == "The server refused the sign-in: No such route; see /openapi.json.")
    }
}

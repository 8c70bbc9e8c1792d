import ArgumentParser
import Foundation
import LinkPreviewTesting
import SharePipeKit
import Testing

@testable import sharepipe

/// The command line's uploader and sign-in over AsyncHTTPClient, against real loopback servers: the
/// Kit's rules (no redirect followed, silence and overall limits, failures worded as for URLSession)
/// hold, and waiting for a silent server costs no CPU.
struct AsyncHTTPTransportTests {
    private static let transport = AsyncHTTPTransport.shared

    /// One share uploaded to `server` through the transport, and how long it took.
    private static func upload(
        to server: URL,
        timeout: Duration = .seconds(20),
        longestExchange: Duration = ShareUploader.defaultLongestExchange
    ) async -> (outcome: UploadOutcome, took: Duration) {
        let uploader = ShareUploader(
            server: server,
            token: "sps_x",
            timeout: timeout,
            longestExchange: longestExchange,
            transport: transport
        )
        let started = ContinuousClock.now
        let outcome = await uploader.upload(ShareItem(url: URL(string: "https://example.com/a")))
        return (outcome, ContinuousClock.now - started)
    }

    @Test("An upload is posted with its token and key, and a 201 is uploaded")
    func anUploadIsPostedAndAccepted() async throws {
        let server = try await LoopbackHTTPServer.start { request in
            guard request.method == "POST", request.header("Authorization") == "Bearer sps_x",
                request.header("Idempotency-Key") != nil
            else { return .status(400) }
            return LoopbackResponse(
                status: 201,
                headers: [("Content-Type", "application/json")],
                body: .whole(Array(#"{"share":{"id":"2C6A9F5E-3B8E-4B43-9C59-0C7A9C1D2E11"}}"#.utf8))
            )
        }
        let (outcome, _) = await Self.upload(to: server.url("/"))
        try await server.shutdown()
        #expect(outcome.kind == .uploaded, "\(outcome)")
    }

    @Test("A redirect is not followed: the share stays for a retry")
    func redirectsAreNotFollowed() async throws {
        let server = try await LoopbackHTTPServer.start { request in
            request.path == "/v1/shares" ? .redirect("/portal") : .html("<p>Hi")
        }
        let (outcome, _) = await Self.upload(to: server.url("/"))
        try await server.shutdown()
        #expect(outcome.kind == .transient, "\(outcome)")
        #expect(server.requestCount("/portal") == 0)
    }

    @Test("A silent server ends at the silence limit, said in seconds")
    func silenceEndsAtTheTimeout() async throws {
        let server = try await LoopbackHTTPServer.start { _ in LoopbackResponse(body: .stall([])) }
        let (outcome, took) = await Self.upload(to: server.url("/"), timeout: .seconds(1))
        try await server.shutdown()
        #expect(outcome.kind == .transient)
        #expect("\(outcome)".contains("it did not answer within 1 s"), "\(outcome)")
        #expect(took < .seconds(10), "ended after \(took)")
    }

    @Test("An answer trickled without end is cut at the overall limit")
    func aTrickledAnswerEndsAtTheLimit() async throws {
        let server = try await LoopbackHTTPServer.start { _ in
            .drip("{", count: 600, every: .milliseconds(100), contentType: "application/json")
        }
        let (outcome, took) = await Self.upload(to: server.url("/"), longestExchange: .seconds(2))
        try await server.shutdown()
        #expect(outcome.kind == .transient, "\(outcome)")
        #expect(took < .seconds(10), "ended after \(took), not at the 2 s limit")
    }

    @Test("Nothing listening, and a name that does not resolve, are said as URLSession's failures are")
    func unreachableServersAreWorded() async throws {
        let (refused, _) = await Self.upload(to: URL(string: "http://127.0.0.1:9")!)
        #expect("\(refused)".contains("nothing answered at that address"), "\(refused)")

        await #expect {
            try await DeviceSignIn(server: URL(string: "http://sharepipe.invalid")!, transport: Self.transport)
                .signIn(handle: "ada", password: "x", deviceName: "phone")
        } throws: { error in
            guard let failure = error as? DeviceSignIn.Failure else { return false }
            return failure.kind == .unreachable && failure.message.contains("the server's name does not resolve")
        }
    }

    @Test("A sign-in answered 401 is a wrong handle or password")
    func signInReadsTheStatus() async throws {
        let server = try await LoopbackHTTPServer.start { _ in .status(401) }
        await #expect {
            try await DeviceSignIn(server: server.url("/"), transport: Self.transport)
                .signIn(handle: "ada", password: "x", deviceName: "phone")
        } throws: { ($0 as? DeviceSignIn.Failure)?.kind == .invalidCredentials }
        try await server.shutdown()
    }

    #if os(Linux)
    /// FoundationNetworking's URLSession kept a core busy while the server was silent: `share` used
    /// 16 s of CPU in its 20 s wait.
    @Test("share waiting for a silent server keeps no core busy")
    func waitingCostsNoCPU() async throws {
        let server = try await LoopbackHTTPServer.start { _ in LoopbackResponse(body: .stall([])) }
        let path = KitCommandTests.container()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let container = try ContainerOption.parse(["--container", path])
        _ = try container.inbox()
        _ = try container.account.stateForApp()
        _ = try container.account.signIn(
            server: server.url("/"),
            shareToken: "sps_x",
            appToken: nil,
            userID: UUID(),
            deviceID: nil,
            handle: "ada"
        )
        let process = Process()
        process.executableURL = SharePipeProcess.executable
        process.arguments = ["share", "https://example.com/a", "--container", path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Until the request has reached the server, then a 3 s wait for its answer.
        let deadline = ContinuousClock.now + .seconds(30)
        while server.requestCount("/v1/shares") == 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
        }
        let before = ProcessCPU.seconds(pid: process.processIdentifier)
        try await Task.sleep(for: .seconds(3))
        let used = ProcessCPU.seconds(pid: process.processIdentifier) - before
        process.terminate()
        process.waitUntilExit()
        try await server.shutdown()
        #expect(server.requestCount("/v1/shares") == 1)
        #expect(used < 0.5, "share used \(used) s of CPU in 3 s of waiting")
    }
    #endif
}

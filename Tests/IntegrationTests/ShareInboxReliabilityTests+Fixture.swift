import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOFoundationCompat
import NIOHTTP1
import Synchronization
import Testing

extension ShareInboxReliabilityTests {
    /// A server on a SQLite file of its own, the account `ada`, and the `sharepipe` processes of one
    /// container; what the tests read of both sides.
    struct Fixture {
        let folder: URL
        let client: HTTPClient
        var server: ServerProcess
        let kit: KitProcesses

        var database: String { folder.appendingPathComponent("sharepipe.sqlite").path }
        /// The server's file blob store, beside its database.
        var blobStore: URL { URL(fileURLWithPath: database + "-blobs") }

        /// SIGKILLs the server and starts it again on its port, on the same database.
        mutating func restartServer() async throws {
            server.kill()
            var lastError: any Error = CancellationError()
            for _ in 0..<10 {
                do {
                    server = try await ServerProcess.start(database: database, client: client, port: server.port)
                    return
                } catch {
                    lastError = error
                    try await Task.sleep(for: .milliseconds(500))
                }
            }
            throw lastError
        }

        /// Kills and restarts the server every 1.5–4 s while `running` holds, at most `times` times;
        /// how many times it did.
        mutating func restartServer(while running: Running, times: Int) async throws -> Int {
            var restarts = 0
            while restarts < times {
                let wait = ContinuousClock.now + .milliseconds(Int.random(in: 1_500...4_000))
                while ContinuousClock.now < wait, running.isOn { try await Task.sleep(for: .milliseconds(50)) }
                guard running.isOn else { break }
                try await restartServer()
                restarts += 1
            }
            return restarts
        }

        static func start() async throws -> Fixture {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
                "sharepipe-kit-\(UUID().uuidString)"
            )
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let database = folder.appendingPathComponent("sharepipe.sqlite").path
            try await ServerProcess.run(["users", "add", "ada", "--password", "correct horse", "--database", database])
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let server = try await ServerProcess.start(database: database, client: client)
            let kit = KitProcesses(
                container: folder.appendingPathComponent("container").path,
                server: "http://127.0.0.1:\(server.port)"
            )
            return Fixture(folder: folder, client: client, server: server, kit: kit)
        }

        func login() throws {
            let (output, status) = try kit.run(
                ["login", "--server", kit.server, "--handle", "ada"],
                password: "correct horse"
            )
            #expect(status == 0, "\(output)")
        }

        var credential: [String: Any] {
            get throws {
                let data = try Data(contentsOf: URL(fileURLWithPath: kit.container + "/credentials.json"))
                return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            }
        }

        /// Revokes the container's device with its app token, as signing out on another device does.
        func revokeDevice() async throws {
            let credential = try self.credential
            let device = try #require(credential["deviceID"] as? String)
            var request = HTTPClientRequest(url: "\(kit.server)/v1/devices/\(device)")
            request.method = .DELETE
            request.headers.add(
                name: "Authorization",
                value: "Bearer \(try #require(credential["appToken"] as? String))"
            )
            let response = try await client.execute(request, timeout: .seconds(10))
            #expect(response.status == .noContent)
        }

        /// Every share of the account (with the current app token), as notes.
        func serverNotes() async throws -> [String] { try await serverShares().map(\.note) }

        /// Every share on the server, oldest last: its note and the SHA-256s of its files.
        func serverShares() async throws -> [(note: String, files: [String])] {
            let token = try #require(try credential["appToken"] as? String)
            var shares: [(note: String, files: [String])] = []
            var cursor: String?
            repeat {
                var url = "\(kit.server)/v1/shares?limit=100"
                if let cursor {
                    url += "&cursor=\(cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? cursor)"
                }
                var request = HTTPClientRequest(url: url)
                request.headers.add(name: "Authorization", value: "Bearer \(token)")
                let response = try await client.execute(request, timeout: .seconds(10))
                let body = try await response.body.collect(upTo: 8 << 20)
                let page = try #require(try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any])
                for share in page["shares"] as? [[String: Any]] ?? [] {
                    let files = (share["attachments"] as? [[String: Any]] ?? []).compactMap { $0["sha256"] as? String }
                    shares.append((share["note"] as? String ?? "", files))
                }
                cursor = page["nextCursor"] as? String
            } while cursor != nil
            return shares
        }

        /// The bytes of the signed-in user's upload `sha256`, as the server has them.
        func uploadedBytes(_ sha256: String) async throws -> Data {
            let token = try #require(try credential["appToken"] as? String)
            var request = HTTPClientRequest(url: "\(kit.server)/v1/uploads/\(sha256)/content")
            request.headers.add(name: "Authorization", value: "Bearer \(token)")
            let response = try await client.execute(request, timeout: .seconds(30))
            #expect(response.status == .ok)
            return Data(buffer: try await response.body.collect(upTo: 64 << 20))
        }

        /// What is left in the inbox's folders (besides the lock file), by folder.
        var inboxLeftovers: [String: [String]] {
            var left: [String: [String]] = [:]
            for folder in ["items", "attachments", "state", "leases", "tmp", "quarantine"] {
                let names =
                    (try? FileManager.default.contentsOfDirectory(atPath: kit.container + "/inbox/" + folder)) ?? []
                if !names.isEmpty { left[folder] = names }
            }
            return left
        }

        /// The files of the shares waiting in the inbox.
        var attachmentFiles: [URL] {
            let root = URL(fileURLWithPath: kit.container + "/inbox/attachments")
            let shares = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
            return shares.flatMap { share in
                let folder = root.appendingPathComponent(share)
                return ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).map {
                    folder.appendingPathComponent($0)
                }
            }
        }

        /// Drains without kills until only shares with attachments wait (which the server cannot take).
        func drainUntilOnlyAttachmentsWait() throws -> (output: String, status: Int32) {
            var last: (output: String, status: Int32) = ("", 0)
            for _ in 0..<120 {
                last = try kit.run(["inbox", "drain"])
                let left = inboxLeftovers
                if last.status == 0, left["items"]?.count ?? 0 == left["attachments"]?.count ?? 0 { return last }
                Thread.sleep(forTimeInterval: 1)
            }
            return last
        }

        /// Drains without kills until the inbox is empty (backoffs of a second or so may remain).
        func drainUntilEmpty() throws -> (output: String, status: Int32) {
            var last: (output: String, status: Int32) = ("", 0)
            for _ in 0..<120 {
                last = try kit.run(["inbox", "drain"])
                if last.status == 0, last.output.contains("; 0 waiting.") { return last }
                Thread.sleep(forTimeInterval: 1)
            }
            return last
        }

        func stop() async throws {
            _ = server.terminate()
            try await client.shutdown()
            try? FileManager.default.removeItem(at: folder)
        }
    }
}

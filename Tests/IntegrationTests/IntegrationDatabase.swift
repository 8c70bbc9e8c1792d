import Foundation
import Testing

/// A fresh database for one test, named as `sharepipe --database` takes it: a SQLite file in a
/// temporary folder, or a schema of its own in the PostgreSQL that `SHAREPIPE_TEST_POSTGRES_URL` names.
/// The folder also holds the servers' log (`server.log`), for when a test fails.
struct IntegrationDatabase: Sendable {
    enum Backend: Sendable, CustomTestStringConvertible {
        case sqlite
        case postgres(String)

        var testDescription: String {
            switch self {
            case .sqlite: "SQLite"
            case .postgres: "PostgreSQL"
            }
        }
    }

    /// The PostgreSQL URL the tests may use, if any.
    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["SHAREPIPE_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// How to restart that PostgreSQL (`pg_ctlcluster 15 main restart`), for the tests that do: set
    /// `SHAREPIPE_TEST_POSTGRES_RESTART_COMMAND` to run them.
    static var postgresRestartCommand: String? {
        ProcessInfo.processInfo.environment["SHAREPIPE_TEST_POSTGRES_RESTART_COMMAND"].flatMap {
            $0.isEmpty ? nil : $0
        }
    }

    /// SQLite always; PostgreSQL when `SHAREPIPE_TEST_POSTGRES_URL` names one (`.ci/run` sets it).
    static var all: [Backend] { [.sqlite] + (postgresURL.map { [.postgres($0)] } ?? []) }

    let backend: Backend
    /// The `--database` argument.
    let location: String
    let folder: URL

    /// Where the servers of the test write their output.
    var log: URL { folder.appendingPathComponent("server.log") }

    init(_ backend: Backend) throws {
        self.backend = backend
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("sharepipe-it-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        switch backend {
        case .sqlite:
            location = folder.appendingPathComponent("sharepipe.sqlite").path
        case .postgres(let url):
            let schema = "it_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
            location = url + (url.contains("?") ? "&" : "?") + "schema=\(schema)&pool_size=4"
        }
    }

    /// Deletes the folder (the PostgreSQL schema stays, like the storage tests' schemas).
    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// `sharepipe users add HANDLE` and `sharepipe devices add HANDLE phone`: the device's tokens.
    func addAccount(_ handle: String) async throws -> DeviceTokens {
        let created = try await ServerProcess.run(["users", "add", handle, "--database", location])
        guard
            let tokens = DeviceTokens(
                try await ServerProcess.run(["devices", "add", handle, "phone", "--database", location])
            )
        else { throw AccountNotCreated(output: created) }
        return tokens
    }

    /// What the server log says, for an issue's comment.
    var logTail: String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return String(text.suffix(4000))
    }
}

/// The two tokens `sharepipe devices add` prints.
struct DeviceTokens: Sendable {
    let app: String
    let share: String

    init?(_ output: String) {
        func token(_ label: String) -> String? {
            output.split(separator: "\n").first { $0.hasPrefix(label) }?.split(separator: " ").last.map(String.init)
        }
        guard let app = token("app token:"), let share = token("share token:") else { return nil }
        self.app = app
        self.share = share
    }
}

struct AccountNotCreated: Error, CustomStringConvertible {
    let output: String
    var description: String { "sharepipe users/devices add failed: \(output)" }
}

import Foundation
import SharePipeServer
import Testing

/// The databases the storage-facing tests run on: in-memory SQLite always; PostgreSQL when
/// `SHAREPIPE_TEST_POSTGRES_URL` names one (`.ci/run` starts one and sets it), each test in a
/// schema of its own.
enum TestDatabase: Sendable, CustomTestStringConvertible {
    case sqlite
    case postgres(String)

    static var all: [TestDatabase] {
        var databases: [TestDatabase] = [.sqlite]
        if let url = ProcessInfo.processInfo.environment["SHAREPIPE_TEST_POSTGRES_URL"], !url.isEmpty {
            databases.append(.postgres(url))
        }
        return databases
    }

    /// A fresh location: a new in-memory database, or a new schema.
    var location: Database.Location {
        switch self {
        case .sqlite: return .sqliteMemory
        case .postgres(let url):
            let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(16)
            // Small pools: the suites run at once, and PostgreSQL takes 100 connections in all.
            return .postgres(url + (url.contains("?") ? "&" : "?") + "schema=\(schema)&pool_size=4&operation_timeout=180")
        }
    }

    var testDescription: String {
        switch self {
        case .sqlite: "SQLite"
        case .postgres: "PostgreSQL"
        }
    }
}

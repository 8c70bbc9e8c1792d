import Foundation
import Logging
import SharePipeServer
import Testing

/// A PostgreSQL that cannot be used is said at start, in words that say what to check. The pool used to
/// retry in the background, logging each failure, until the first migration query gave up 30 s later
/// with "no answer from the database".
@Suite("Opening a PostgreSQL database that cannot be used")
struct PostgresStartupTests {
    static let logger = Logger(label: "test")

    static func openingFails(_ url: String) async -> StorageError? {
        do {
            let database = try await Database.open(.postgres(url), logger: logger)
            try? await database.close()
            return nil
        } catch {
            return error as? StorageError
        }
    }

    @Test("Nothing listening at the address: the system's reason and what to check")
    func nothingListening() async throws {
        let error = try #require(await Self.openingFails("postgres://ada:secret@127.0.0.1:1/shares"))
        #expect(error.code == .unavailable)
        #expect(
            error.message.hasPrefix("Cannot connect to PostgreSQL at 127.0.0.1:1 (Connection refused)"),
            "\(error.message)"
        )
        #expect(error.message.contains("is PostgreSQL running there"), "\(error.message)")
    }

    @Test(
        "A wrong password, or a database that does not exist, is the server's word",
        .enabled(if: ProcessInfo.processInfo.environment["SHAREPIPE_TEST_POSTGRES_URL"] != nil)
    )
    func refusedByTheServer() async throws {
        let url = try #require(ProcessInfo.processInfo.environment["SHAREPIPE_TEST_POSTGRES_URL"])
        var components = try #require(URLComponents(string: url))
        let user = components.user ?? ""
        var wrongPassword = components
        wrongPassword.password = "not-the-password"
        let wrongPasswordURL = try #require(wrongPassword.string)
        let password = try #require(await Self.openingFails(wrongPasswordURL))
        #expect(password.message.contains("refused the user \(user)"), "\(password.message)")
        #expect(password.message.contains("Check the user and password in the URL"), "\(password.message)")
        components.path = "/no_such_database_here"
        let missingDatabaseURL = try #require(components.string)
        let database = try #require(await Self.openingFails(missingDatabaseURL))
        #expect(
            database.message.contains("has no database no_such_database_here: create it"),
            "\(database.message)"
        )
    }

    /// CI's PostgreSQL, as Debian sets it up here, does not take TLS: `sslmode=require` must refuse to
    /// go on without it (the URL's mode used to be dropped, and every connection was plaintext),
    /// while the default, `prefer`, connects.
    @Test(
        "sslmode=require against a server without TLS is refused; prefer falls back to plaintext",
        .enabled(if: ProcessInfo.processInfo.environment["SHAREPIPE_TEST_POSTGRES_URL"] != nil)
    )
    func requireTLS() async throws {
        let url = try #require(ProcessInfo.processInfo.environment["SHAREPIPE_TEST_POSTGRES_URL"])
        let join = url.contains("?") ? "&" : "?"
        let serverHasTLS = await Self.openingFails(url + join + "sslmode=require") == nil
        try #require(!serverHasTLS, "this test needs a PostgreSQL without ssl = on")
        let refused = try #require(await Self.openingFails(url + join + "sslmode=require"))
        #expect(refused.message.contains("does not take TLS connections, which sslmode=require requires"))
        #expect(await Self.openingFails(url + join + "sslmode=prefer") == nil)
    }
}

import ArgumentParser
import Foundation
import SharePipeServer
import TestSupport
import Testing

@testable import sharepipe

/// `sharepipe users add` and `devices add`: the database they use, the names they take, and the
/// messages when something is wrong, as a person running them sees them.
@Suite("sharepipe users and devices")
struct AdminCommandTests {
    /// It used to make a stray ./sharepipe.sqlite, and its hint then made the account there.
    @Test("devices add where there is no database makes none and says where it looked")
    func devicesAddNeedsADatabase() async throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try await SharePipeProcess.run(["devices", "add", "ada", "phone"], in: folder)
        #expect(result.status != 0)
        #expect(result.output.contains("No SharePipe database at "), "\(result.output)")
        #expect(result.output.contains("sharepipe.sqlite: run this where `sharepipe serve` keeps its database"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    /// `users add --database sqlite::memory:` said "Created @ada" and kept nothing; `:memory:` also
    /// left a stray empty file by that name.
    @Test("An in-memory database is refused by the commands that keep accounts, and makes no file")
    func inMemoryRefused() async throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        for database in ["sqlite::memory:", ":memory:"] {
            let result = try await SharePipeProcess.run(
                ["users", "add", "ada", "--database", database],
                in: folder,
                environment: ["SHAREPIPE_PASSWORD": "correct horse"]
            )
            #expect(result.status != 0, "\(database): \(result.output)")
            #expect(result.output.contains("A database in memory keeps nothing"), "\(result.output)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty)
    }

    @Test("devices add @ada finds ada, and a missing account is named with its database")
    func devicesAddNormalisesTheHandle() async throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("server.sqlite").path
        let created = try await SharePipeProcess.run(["users", "add", "@Ada", "--database", database])
        #expect(created.status == 0, "\(created.output)")
        #expect(created.output.contains("Created @ada"))
        #expect(!created.output.contains("migration"), "opening the database is not news: \(created.output)")

        let device = try await SharePipeProcess.run(["devices", "add", "@Ada", "Ada's phone", "--database", database])
        #expect(device.status == 0, "\(device.output)")
        #expect(device.output.contains("for @ada."), "\(device.output)")

        let missing = try await SharePipeProcess.run(["devices", "add", "bob", "phone", "--database", database])
        #expect(missing.status != 0)
        #expect(
            missing.output.contains(
                "No account @bob in \(database); create it with: sharepipe users add bob --database"
            ),
            "\(missing.output)"
        )
    }

    @Test("users delete needs --yes, deletes once, and frees the handle")
    func usersDelete() async throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("server.sqlite").path
        #expect(try await SharePipeProcess.run(["users", "add", "ada", "--database", database]).status == 0)
        let unconfirmed = try await SharePipeProcess.run(["users", "delete", "@ada", "--database", database])
        #expect(unconfirmed.status != 0 && unconfirmed.output.contains("add --yes"), "\(unconfirmed.output)")
        let deleted = try await SharePipeProcess.run(["users", "delete", "@ada", "--yes", "--database", database])
        #expect(deleted.status == 0 && deleted.output.contains("Deleted @ada"), "\(deleted.output)")
        let again = try await SharePipeProcess.run(["users", "delete", "ada", "--yes", "--database", database])
        #expect(again.status != 0 && again.output.contains("No account @ada"), "\(again.output)")
        #expect(try await SharePipeProcess.run(["users", "add", "ada", "--database", database]).status == 0, "the handle is free")
    }

    /// `postgres+uds://` (and a scheme in capitals) was taken for a SQLite path: `serve` offered to
    /// create a folder named like the socket, and following that made a new, empty database.
    @Test("Every PostgreSQL URL form is PostgreSQL, whatever the scheme's case; anything else a SQLite path")
    func postgresURLForms() throws {
        for url in [
            "postgres://u:p@db/sp", "postgresql://u@db/sp", "POSTGRES://u@db/sp", "postgres+tcp://u@db/sp",
            "postgres+uds://u@/run/postgresql/.s.PGSQL.5432#sp", "postgresql+uds://u@/tmp/.s.PGSQL.5432#sp",
        ] {
            #expect(try DatabaseOption.parse(["--database", url]).location() == .postgres(url), "\(url)")
        }
        for path in ["postgres.sqlite", "data/postgres:x.sqlite", "mysql://u@db/sp"] {
            #expect(try DatabaseOption.parse(["--database", path]).location() == .sqliteFile(path), "\(path)")
        }
    }

    /// `users add` printed the URL whole, password included, in its result and in the next command.
    @Test("A PostgreSQL password is never printed: messages and hints name the URL without it")
    func postgresPasswordIsNotPrinted() async throws {
        let option = try DatabaseOption.parse(["--database", "postgres://sp:S3cret@db.example:5432/sp?sslmode=require"])
        #expect(option.name == "postgres://sp:…@db.example:5432/sp?sslmode=require")
        #expect(
            option.hintArgument
                == " --database 'postgres://sp:…@db.example:5432/sp?sslmode=require' (with the password where … stands)"
        )
        #expect(try DatabaseOption.parse(["--database", "postgres://sp@db/sp"]).name == "postgres://sp@db/sp")

        guard let base = ProcessInfo.processInfo.environment["SHAREPIPE_TEST_POSTGRES_URL"],
            let password = URLComponents(string: base)?.password
        else { return }
        // A schema of its own: the database's default schema may hold another build's migrations.
        let schema = "pw_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        let url = base + (base.contains("?") ? "&" : "?") + "schema=\(schema)"
        let handle = "pw\(UInt32.random(in: 0...UInt32.max))"
        let created = try await SharePipeProcess.run(
            ["users", "add", handle],
            environment: ["SHAREPIPE_DATABASE": url]
        )
        #expect(created.status == 0, "\(created.output)")
        #expect(created.output.contains("Created @\(handle)"), "\(created.output)")
        #expect(!created.output.contains(":\(password)@"), "\(created.output)")
        // The next command reads SHAREPIPE_DATABASE too: the hint needs no --database.
        #expect(created.output.contains("Next: sharepipe devices add \(handle) \"My phone\"\n"), "\(created.output)")
    }

    @Test("Display names and device names follow the server's limits")
    func namesFollowTheServersLimits() {
        let long = String(repeating: "x", count: 10_000)
        for name in [long, "", "   "] {
            let message = UsersCommand.message(parsing: ["add", "ada", "--display-name", name])
            #expect(message.contains("--display-name must be 1–64 characters"), "\(message)")
        }
        #expect(UsersCommand.message(parsing: ["add", "ada", "--display-name", "Ada L."]) == "")
        for name in [String(repeating: "y", count: 100_000), ""] {
            let message = DevicesCommand.message(parsing: ["add", "ada", name])
            #expect(message.contains("The device's name must be 1–100 characters"), "\(message)")
        }
        let handle = DevicesCommand.message(parsing: ["add", "bad handle!", "phone"])
        #expect(handle.contains("'bad handle!' is not a handle."), "\(handle)")
    }

    @Test("users add without a password says the account cannot sign in")
    func usersAddWithoutAPassword() async throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("server.sqlite").path
        // An empty SHAREPIPE_PASSWORD is no password, not a password that is too short.
        let result = try await SharePipeProcess.run(
            ["users", "add", "dave", "--database", database],
            environment: ["SHAREPIPE_PASSWORD": ""]
        )
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("It has no password: it cannot sign in with sharepipe login"))
    }

    @Test("A database path that cannot be a database is explained, not reported as cantOpen")
    func databasePathsThatCannotWork() async throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let notSQLite = folder.appendingPathComponent("notes.txt")
        try Data("not a database at all".utf8).write(to: notSQLite)
        let cases = [
            (folder.path, "is a folder, not a database file"),
            (folder.appendingPathComponent("missing/x.sqlite").path, "does not exist: create it"),
            (notSQLite.path, "is not a SharePipe database (not a SQLite file)"),
        ]
        for (path, expected) in cases {
            // serve on an address that is not this machine's: were the database accepted, it could not listen.
            for arguments in [["users", "add", "ada"], ["serve", "--host", "203.0.113.1"]] {
                let result = try await SharePipeProcess.run(arguments + ["--database", path])
                #expect(result.status != 0)
                #expect(result.output.contains(expected), "\(arguments) \(path): \(result.output)")
                #expect(!result.output.contains("cantOpen") && !result.output.contains("notADatabase"))
            }
        }
        #expect(try String(contentsOf: notSQLite, encoding: .utf8) == "not a database at all")
    }
}

import ArgumentParser
import Foundation
import Logging
import SharePipeCLISupport
import SharePipeServer

/// `--database`: a SQLite file path (default ./sharepipe.sqlite), `sqlite::memory:`, or a PostgreSQL
/// URL (`postgres://user:password@host:5432/database`, `postgres+uds:///run/postgresql/.s.PGSQL.5432#db`).
struct DatabaseOption: ParsableArguments {
    /// The file `serve` and the admin commands use when neither `--database` nor SHAREPIPE_DATABASE names one.
    static let defaultPath = "sharepipe.sqlite"

    @Option(
        name: .customLong("database"),
        help:
            "The database: a SQLite file path, sqlite::memory:, or postgres://user:pass@host/db (env SHAREPIPE_DATABASE)."
    )
    var value: String =
        ProcessInfo.processInfo.environment["SHAREPIPE_DATABASE"].flatMap { $0.isEmpty ? nil : $0 }
        ?? Self.defaultPath

    func location() throws -> Database.Location {
        if Database.Location.isPostgresURL(value) { return .postgres(value) }
        let path = value.hasPrefix("sqlite:") ? String(value.dropFirst("sqlite:".count)) : value
        // SQLite reads ":memory:" as a database in memory, whatever the prefix.
        if path == ":memory:" { return .sqliteMemory }
        guard !path.isEmpty else { throw ValidationError("--database needs a file path.") }
        return .sqliteFile(path)
    }

    /// The database in words for messages: the SQLite file's absolute path, or the location (a
    /// PostgreSQL URL without its password).
    var name: String {
        switch try? location() {
        case .sqliteFile(let path): URL(fileURLWithPath: path).standardizedFileURL.path
        case .some(let location): location.description
        case nil: value
        }
    }

    /// ` --database VALUE` for a hint that names another command: empty for the default database and
    /// for one SHAREPIPE_DATABASE names (the next command reads it too), and a PostgreSQL URL without
    /// its password, which is kept out of terminals and logs.
    var hintArgument: String {
        let fromEnvironment = ProcessInfo.processInfo.environment["SHAREPIPE_DATABASE"] == value
        guard value != Self.defaultPath, !fromEnvironment else { return "" }
        let redacted = name != value && Database.Location.isPostgresURL(value)
        return " --database \(ShellWord.quoted(name))" + (redacted ? " (with the password where … stands)" : "")
    }

    /// Whether ``open(_:logger:)`` may create the database.
    enum Need {
        /// The database must already exist: a command that works on accounts in it must not leave a new,
        /// empty database where it was run by mistake.
        case existing
        /// A new database is made when there is none (`serve`, `users add`: the first run).
        case existingOrNew
    }

    /// The database, opened and migrated, after checking a SQLite file's path; its failures are
    /// explained in words that say what to do.
    func open(_ need: Need, logger: Logger) async throws -> Database {
        let location = try location()
        if case .sqliteMemory = location {
            throw CLIError(
                "A database in memory keeps nothing once this command ends: pass --database with the file "
                    + "`sharepipe serve` uses."
            )
        }
        try check(location, need: need)
        do {
            return try await Database.open(location, logger: logger)
        } catch {
            throw Self.explained(error, location: location)
        }
    }

    /// Throws a ``CLIError`` when the SQLite file at `location` cannot be the database (a folder, a
    /// missing or read-only folder, a file that is not SQLite), or does not exist and must.
    func check(_ location: Database.Location, need: Need) throws {
        guard case .sqliteFile(let path) = location else { return }
        if let problem = SQLiteFileCheck.problem(atPath: path, mustExist: need == .existing) {
            throw CLIError(problem)
        }
    }

    /// SQLite's failures to open a file (`cantOpen`, `notADatabase`…) in words; anything else as it is.
    static func explained(_ error: any Error, location: Database.Location) -> any Error {
        // A PostgreSQL URL or server that cannot be used is explained by the storage (PostgresURL,
        // PostgresStartupCheck), as is a database migrated by a newer SharePipe.
        if let storage = error as? StorageError { return CLIError(storage.message) }
        guard case .sqliteFile(let path) = location else { return error }
        let text = String(describing: error)
        if text.hasPrefix("notADatabase") {
            return CLIError(SQLiteFileCheck.notADatabase(path))
        }
        if text.hasPrefix("cantOpen") || text.hasPrefix("readonly") || text.hasPrefix("permission") {
            return CLIError(
                "Cannot open the database \(path): check that its folder exists and this user may write "
                    + "there and to the file, or pass --database with another path."
            )
        }
        return error
    }
}

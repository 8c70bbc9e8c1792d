import ArgumentParser
import Foundation
import Logging
import SQLKit
import SharePipeCLISupport
import SharePipeServer

/// `sharepipe-dev bench-shelf`: seeds 1,000,000 messages over 10,000 users (one user with 20,000 shelf
/// items across 200 conversations) and times that user's shelf: the first page and "Show more".
struct ShelfBenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-shelf",
        abstract: "Time the Shared with You shelf on a large seeded database (build with -c release).",
        discussion: "Run through scripts/bench-shelf.sh, which builds in release mode and runs SQLite and PostgreSQL."
    )

    @Option(
        help: """
            Where to seed: a SQLite file path that does not exist yet (see --replace), or a PostgreSQL URL \
            with a schema of its own (?schema=bench_shelf), new or seeded by an earlier run (--replace).
            """
    )
    var database: String

    @Option(parsing: .unconditional, help: "Messages in all, from --items to 100000000.")
    var messages = 1_000_000

    @Option(parsing: .unconditional, help: "Users in all, 4–10000000 and more than --conversations.")
    var users = 10_000

    @Option(parsing: .unconditional, help: "Distinct links on the measured user's shelf, 1–1000000.")
    var items = 20_000

    @Option(parsing: .unconditional, help: "Conversations of the measured user, 1–100000.")
    var conversations = 200

    @Option(parsing: .unconditional, help: "Timed requests per kind of page, 1–1000000.")
    var requests = 500

    @Flag(help: "Time the database seeded by an earlier run instead of seeding it again.")
    var reuse = false

    @Flag(help: "Replace the SQLite file at --database if an earlier bench-shelf seeded it (nothing else).")
    var replace = false

    /// Marks a SQLite file this command seeded (`PRAGMA application_id`, "SPBS"), so `--replace`
    /// replaces only such a file.
    static let applicationID: UInt32 = 0x5350_4253

    var isPostgres: Bool { Database.Location.isPostgresURL(database) }

    /// `--database` as a SQLite file path (a `sqlite:` prefix dropped).
    var sqlitePath: String { database.hasPrefix("sqlite:") ? String(database.dropFirst("sqlite:".count)) : database }

    /// The table that marks a PostgreSQL schema as seeded by this benchmark.
    static let markerTable = "bench_shelf_seed"

    /// The `schema` query item of a PostgreSQL URL, when it is a plain name (letters, digits, `_`).
    static func schema(in url: String) -> String? {
        guard let value = URLComponents(string: url)?.queryItems?.first(where: { $0.name == "schema" })?.value,
            !value.isEmpty, value.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
        else { return nil }
        return value
    }

    func validate() throws {
        try OptionRange.check(items, in: 1...1_000_000, option: "--items")
        guard (items...100_000_000).contains(messages) else {
            throw ValidationError("--messages must be from --items (\(items)) to 100000000 (got \(messages)).")
        }
        try OptionRange.check(conversations, in: 1...100_000, option: "--conversations")
        guard (4...10_000_000).contains(users), users > conversations else {
            throw ValidationError(
                "--users must be 4–10000000 and more than --conversations (\(conversations)) (got \(users))."
            )
        }
        try OptionRange.check(requests, in: 1...1_000_000, option: "--requests")
        if isPostgres {
            guard Self.schema(in: database) != nil else {
                throw ValidationError(
                    "bench-shelf seeds PostgreSQL only in a schema of its own: add ?schema=bench_shelf to the URL "
                        + "(letters, digits and _), never the schema a server keeps its data in."
                )
            }
            return
        }
        guard !reuse else { return }
        let path = sqlitePath
        guard !path.isEmpty else { throw ValidationError("--database needs a file path or a PostgreSQL URL.") }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return }
        if isFolder.boolValue {
            throw ValidationError(
                "--database \(path) is a folder; give the path of a new file, e.g. \(path)/shelf.sqlite."
            )
        }
        if let target = SymbolicLink.target(of: path) {
            // --replace removes files, never what a link leads to: the link's own path is asked for.
            throw ValidationError(
                "--database \(path) is a link to \(target); bench-shelf replaces only a file named by its "
                    + "own path. Give \(target), or a new path."
            )
        }
        guard replace else {
            throw ValidationError(
                "--database \(path) exists; bench-shelf seeds a new file. Give a new path, --reuse to time it again, "
                    + "or --replace to replace a database an earlier bench-shelf seeded."
            )
        }
        guard Self.isSeededByThisBenchmark(path) else {
            throw ValidationError(
                "--database \(path) was not seeded by bench-shelf, so --replace leaves it alone; give a new path."
            )
        }
    }

    /// Whether `path` is a SQLite file whose header carries ``applicationID``.
    static func isSeededByThisBenchmark(_ path: String) -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        guard let header = try? handle.read(upToCount: 100), header.count == 100,
            header.prefix(16) == SQLiteFileCheck.header
        else { return false }
        let id = header[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return id == applicationID
    }

    func run() async throws {
        #if DEBUG
        print("warning: a debug build; figures are meaningless. Use scripts/bench-shelf.sh (release).")
        #endif
        let location: Database.Location = isPostgres ? .postgres(database) : .sqliteFile(sqlitePath)
        let logger = Logger(label: "bench-shelf", factory: { _ in SwiftLogNoOpLogHandler() })
        let db: Database
        let target: UUID
        if reuse {
            db = try await Database.open(location, logger: logger)
            guard
                let row = try await db.run({ sql in
                    try await sql.raw("SELECT id FROM users WHERE handle = 'user0'").first()
                }),
                let id = UUID(uuidString: try row.decode(column: "id", as: String.self))
            else { throw CLIError("Nothing seeded at \(location); run once without --reuse.") }
            target = id
        } else {
            (db, target) = try await seed(location, logger: logger)
        }
        let first = try await Shelf(storage: db).page(userID: target, after: nil, limit: 20, now: Date())
        print("first page: \(first.highlights.count) items")
        var cursors: [ShelfCursor] = []
        var page = first
        for _ in 0..<50 {
            guard let token = page.nextCursor, let cursor = ShelfCursor(token: token) else { break }
            cursors.append(cursor)
            page = try await Shelf(storage: db).page(userID: target, after: cursor, limit: 20, now: Date())
        }
        for _ in 0..<20 { _ = try await Shelf(storage: db).page(userID: target, after: nil, limit: 20, now: Date()) }  // warm-up
        var firstPage: [Double] = []
        var showMore: [Double] = []
        for index in 0..<requests {
            firstPage.append(
                try await Self.time { _ = try await Shelf(storage: db).page(userID: target, after: nil, limit: 20, now: Date()) }
            )
            // A shelf that fits on one page has no "Show more" to time.
            guard !cursors.isEmpty else { continue }
            let cursor = cursors[index % cursors.count]
            showMore.append(
                try await Self.time { _ = try await Shelf(storage: db).page(userID: target, after: cursor, limit: 20, now: Date()) }
            )
        }
        let showMoreLine =
            cursors.isEmpty
            ? "show more: not timed (the shelf fits on its first page; seed more --items)"
            : "show more (pages 2–\(cursors.count + 1), 20 items):        p50 \(Self.format(FetchBenchRun.percentile(showMore, 0.5))) ms  p99 \(Self.format(FetchBenchRun.percentile(showMore, 0.99))) ms"
        print(
            """
            shelf of a user with \(items) items in \(conversations) conversations, \(location.description.hasPrefix("postgres") ? "PostgreSQL" : "SQLite"),
            \(requests) sequential calls of Database.shelf (the storage work of GET /v1/highlights) per kind, after 20 warm-up calls:
              first page (suggestion over 50 + pins + 20):  p50 \(Self.format(FetchBenchRun.percentile(firstPage, 0.5))) ms  p99 \(Self.format(FetchBenchRun.percentile(firstPage, 0.99))) ms
              \(showMoreLine)
            """
        )
        try await Self.printPlan(db, target: target)
        try await timeSearch(db, target: target)
        try await db.close()
    }

    /// Times `Search.page` (the work of GET /v1/search) for the measured user: each kind of query
    /// over words of the seed's vocabulary, from the most used (in most of the user's 20,000
    /// documents) to rare ones.
    func timeSearch(_ db: Database, target: UUID) async throws {
        let kinds: [(name: String, queries: [String])] = [
            ("a common word (ranks 0–9)", (0..<10).map { Vocabulary.word($0) }),
            ("a middling word (ranks 100–199)", (100..<200).map { Vocabulary.word($0) }),
            ("a rare word (ranks 5000–5099)", (5000..<5100).map { Vocabulary.word($0) }),
            ("two words (ranks 0–49 and 50–99)", (0..<50).map { "\(Vocabulary.word($0)) \(Vocabulary.word(50 + $0))" }),
            ("a prefix, as typed (3 letters)", (20..<70).map { String(Vocabulary.word($0).prefix(3)) }),
        ]
        let search = Search(storage: db)
        var all: [Double] = []
        var lines: [String] = []
        for kind in kinds {
            let queries = kind.queries.compactMap { SearchQuery($0, userID: target) }
            for query in queries.prefix(5) { _ = try await search.page(query, after: nil, limit: 20) }  // warm-up
            var times: [Double] = []
            var found = 0
            for index in 0..<requests {
                let query = queries[index % queries.count]
                var page: SearchPage?
                times.append(try await Self.time { page = try await search.page(query, after: nil, limit: 20) })
                found += page?.results.count ?? 0
            }
            all += times
            lines.append(
                "  \(kind.name.padding(toLength: 34, withPad: " ", startingAt: 0)) p50 \(Self.format(FetchBenchRun.percentile(times, 0.5))) ms  p99 \(Self.format(FetchBenchRun.percentile(times, 0.99))) ms  (\(found / max(1, requests)) results a page)"
            )
        }
        print(
            """
            search of the same user, \(requests) sequential calls of Search.page (the storage work of GET /v1/search, \
            first page of 20) per kind, after 5 warm-up calls:
            \(lines.joined(separator: "\n"))
              all kinds together:                p50 \(Self.format(FetchBenchRun.percentile(all, 0.5))) ms  p99 \(Self.format(FetchBenchRun.percentile(all, 0.99))) ms
            """
        )
    }

    /// A fresh database with the seed written into it, and the measured user.
    func seed(_ location: Database.Location, logger: Logger) async throws -> (Database, UUID) {
        if case .sqliteFile(let path) = location, FileManager.default.fileExists(atPath: path) {
            // validate() let only a file this benchmark seeded through (with --replace); checked again
            // here, just before it goes. Never a folder, never anything else.
            guard replace, Self.isSeededByThisBenchmark(path) else {
                throw CLIError("--database \(path) exists and was not seeded by bench-shelf; give a new path.")
            }
            for suffix in ["", "-wal", "-shm"] where Self.isRegularFile(path + suffix) {
                try FileManager.default.removeItem(atPath: path + suffix)
            }
        }
        var db = try await Database.open(location, logger: logger)
        if case .sqliteFile = location {
            try await db.run { sql in
                try await sql.raw("PRAGMA application_id = \(unsafeRaw: String(Self.applicationID))").run()
            }
        }
        if case .postgres(let url) = location, let schema = Self.schema(in: url) {
            // Only the URL's own schema (validate() requires one), and only when it is new, or was
            // seeded by this benchmark and --replace says to seed it again: a server's schema with
            // accounts in it is never dropped.
            let (hasData, seeded) = try await db.run { sql in
                let data = try await sql.raw("SELECT 1 AS found FROM users LIMIT 1").first() != nil
                let marker =
                    try await sql.raw("SELECT to_regclass('\(unsafeRaw: Self.markerTable)') IS NOT NULL AS found")
                    .first()?.decode(column: "found", as: Bool.self) ?? false
                return (data, marker)
            }
            if hasData {
                guard replace, seeded else {
                    try await db.close()
                    throw CLIError(
                        seeded
                            ? "The schema \(schema) was seeded by an earlier bench-shelf run: pass --replace to seed "
                                + "it again, or give another ?schema=."
                            : "The schema \(schema) holds data bench-shelf did not seed: give another ?schema=."
                    )
                }
                try await db.run { sql in try await sql.raw("DROP SCHEMA \(unsafeRaw: schema) CASCADE").run() }
                try await db.close()
                db = try await Database.open(location, logger: logger)
            }
            try await db.run { sql in
                try await sql.raw("CREATE TABLE IF NOT EXISTS \(unsafeRaw: Self.markerTable) (seeded BOOLEAN)").run()
            }
        }
        let clock = ContinuousClock()
        var seed: (world: Database.BulkWorld, target: UUID)!
        let built = clock.measure {
            seed = ShelfSeed.world(
                users: users,
                messages: messages,
                targetItems: items,
                targetConversations: conversations,
                links: max(items * 10, 100_000)
            )
        }
        print("seed: \(messages) messages, \(users) users (built in \(built))")
        let started = clock.now
        let written = try await db.bulkLoad(seed.world) { print("  wrote \($0) after \(clock.now - started)") }
        print("  \(written.sources) shelf sources, \(written.items) shelf items")
        return (db, seed.target)
    }

    static func isRegularFile(_ path: String) -> Bool {
        (try? FileManager.default.attributesOfItem(atPath: path)[.type] as? FileAttributeType) == .typeRegular
    }

    static func time(_ body: () async throws -> Void) async throws -> Double {
        let start = ContinuousClock.now
        try await body()
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }

    static func format(_ value: Double) -> String { String(format: "%.2f", value) }

    /// The plan of the feed query, the one that grows with the shelf.
    static func printPlan(_ db: Database, target: UUID) async throws {
        let feed = """
            SELECT link_id, last_shared_at FROM shelf_items
            WHERE user_id = '\(target.uuidString)' AND visible = 1 AND removed_at IS NULL AND pinned_at IS NULL
            ORDER BY last_shared_at DESC, link_id DESC LIMIT 52
            """
        let explain = db.dialect == .postgres ? "EXPLAIN " : "EXPLAIN QUERY PLAN "
        let rows = try await db.run { sql in try await sql.raw(SQLQueryString(explain + feed)).all() }
        print("plan of the feed query:")
        for row in rows {
            let column = db.dialect == .postgres ? "QUERY PLAN" : "detail"
            if let line = try? row.decode(column: column, as: String.self) { print("  " + line) }
        }
    }
}

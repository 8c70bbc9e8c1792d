import ArgumentParser
import Foundation
import TestSupport
import Testing

@testable import sharepipe_dev

/// The benchmark commands: they remove only what they made, and refuse numbers they cannot use
/// instead of trapping or printing nonsense.
@Suite("sharepipe-dev bench, bench-fetch, bench-inbox, bench-shelf")
struct BenchCommandTests {
    /// It used to delete the folder it was given and everything in it.
    @Test("bench-inbox --folder keeps what was in the folder")
    func benchInboxKeepsTheFolder() async throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let notes = folder.appendingPathComponent("sub/notes.txt")
        try FileManager.default.createDirectory(
            at: notes.deletingLastPathComponent(),
            withIntermediateDirectories: true
        )
        try Data("important".utf8).write(to: notes)
        let result = try await SharePipeExecutable.developer.run([
            "bench-inbox", "--folder", folder.path, "--items", "3", "--rounds", "1",
        ])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("ratio of medians"))
        #expect(try String(contentsOf: notes, encoding: .utf8) == "important")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["sub"],
            "its own subfolder is gone"
        )

        let file = try await SharePipeExecutable.developer.run([
            "bench-inbox", "--folder", notes.path, "--items", "3", "--rounds", "1",
        ])
        #expect(file.status == 64)
        #expect(file.output.contains("is a file; give a folder"), "\(file.output)")
        #expect(FileManager.default.fileExists(atPath: notes.path))
    }

    /// The PostgreSQL databases to try bench-shelf on: the tests' own, when `.ci/run` provides one.
    static var postgres: [String] {
        ProcessInfo.processInfo.environment["SHAREPIPE_TEST_POSTGRES_URL"].map { [$0] } ?? []
    }

    /// On PostgreSQL it dropped the public schema of whatever database it was given, a server's
    /// too, and with ?schema= it still dropped public.
    @Test("bench-shelf on PostgreSQL needs a schema of its own and never seeds over a server's", arguments: postgres)
    func benchShelfOnPostgres(url: String) async throws {
        let small = ["--messages", "100", "--users", "10", "--items", "20", "--conversations", "2", "--requests", "2"]
        let withoutSchema = try await SharePipeExecutable.developer.run(["bench-shelf", "--database", url] + small)
        #expect(withoutSchema.status == 64)
        #expect(
            withoutSchema.output.contains("seeds PostgreSQL only in a schema of its own"),
            "\(withoutSchema.output)"
        )
        // A server's schema, with an account in it.
        let schema = "server_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12).lowercased()
        let server = url + (url.contains("?") ? "&" : "?") + "schema=\(schema)"
        let added = try await SharePipeExecutable.product.run(
            ["users", "add", "ada", "--database", server],
            environment: ["SHAREPIPE_PASSWORD": "correct horse"]
        )
        #expect(added.status == 0, "\(added.output)")
        let refused = try await SharePipeExecutable.developer.run(
            ["bench-shelf", "--database", server, "--replace"] + small
        )
        #expect(refused.status != 0)
        #expect(refused.output.contains("holds data bench-shelf did not seed"), "\(refused.output)")
        let device = try await SharePipeExecutable.product.run(["devices", "add", "ada", "phone", "--database", server])
        #expect(device.status == 0, "the account is still there: \(device.output)")
    }

    /// It used to delete whatever was at --database: a folder, a server's database.
    @Test("bench-shelf --database refuses a path that exists, and --replace only replaces its own seed")
    func benchShelfKeepsWhatIsThere() async throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let notes = folder.appendingPathComponent("notes.txt")
        try Data("important".utf8).write(to: notes)
        let small = ["--messages", "100", "--users", "10", "--items", "20", "--conversations", "2", "--requests", "2"]

        let onFolder = try await SharePipeExecutable.developer.run(["bench-shelf", "--database", folder.path] + small)
        #expect(onFolder.status == 64)
        #expect(onFolder.output.contains("is a folder"), "\(onFolder.output)")
        for extra in [[], ["--replace"]] {
            let onFile = try await SharePipeExecutable.developer.run(
                ["bench-shelf", "--database", notes.path] + small + extra
            )
            #expect(onFile.status == 64, "\(extra)")
            #expect(
                onFile.output.contains(
                    extra.isEmpty ? "exists; bench-shelf seeds a new file" : "was not seeded by bench-shelf"
                ),
                "\(onFile.output)"
            )
        }
        #expect(try String(contentsOf: notes, encoding: .utf8) == "important")

        // A shelf that fits on one page used to trap (index out of range); its own seed may be replaced.
        let database = folder.appendingPathComponent("shelf.sqlite").path
        let seeded = try await SharePipeExecutable.developer.run(["bench-shelf", "--database", database] + small)
        #expect(seeded.status == 0, "\(seeded.output)")
        #expect(seeded.output.contains("show more: not timed (the shelf fits on its first page"), "\(seeded.output)")
        let again = try await SharePipeExecutable.developer.run(["bench-shelf", "--database", database] + small)
        #expect(again.status == 64, "\(again.output)")
        let replaced = try await SharePipeExecutable.developer.run(
            ["bench-shelf", "--database", database, "--replace"] + small
        )
        #expect(replaced.status == 0, "\(replaced.output)")
        // Through a link to its own seed: refused by name, the seed left as it was.
        let link = folder.appendingPathComponent("link.sqlite").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "shelf.sqlite")  // relative
        let throughLink = try await SharePipeExecutable.developer.run(
            ["bench-shelf", "--database", link, "--replace"] + small
        )
        #expect(throughLink.status == 64, "\(throughLink.output)")
        #expect(throughLink.output.contains("is a link to \(database)"), "\(throughLink.output)")
        #expect(ShelfBenchCommand.isSeededByThisBenchmark(database))
    }

    @Test("Numbers a benchmark cannot use are refused with the range, never a trap or -nan")
    func refusesNumbersItCannotUse() {
        let cases: [(any ParsableCommand.Type, [String], String)] = [
            (BenchCommand.self, ["--rounds", "0"], "--rounds must be 1–1000 (got 0)."),
            (BenchCommand.self, ["--rounds", "-1"], "--rounds must be 1–1000 (got -1)."),
            (InboxBenchCommand.self, ["--items", "0"], "--items must be 1–1000000 (got 0)."),
            (InboxBenchCommand.self, ["--rounds", "0"], "--rounds must be 1–1000 (got 0)."),
            (InboxBenchCommand.self, ["--only", "foo"], "--only must be raw or inbox (got foo)."),
            (UploadBenchCommand.self, ["--files", "0"], "--files must be 1–64 (got 0)."),
            (UploadBenchCommand.self, ["--megabytes", "26"], "--megabytes must be 1–25 (got 26)."),
            (UploadBenchCommand.self, ["--rounds", "0"], "--rounds must be 1–100 (got 0)."),
            (FetchBenchCommand.self, ["--concurrency", "a,b"], "--concurrency takes levels 1–1024, comma-separated"),
            (FetchBenchCommand.self, ["--concurrency", "1,16,"], "(got “” in “1,16,”)"),
            (FetchBenchCommand.self, ["--concurrency", "0"], "(got “0” in “0”)"),
            (FetchBenchCommand.self, ["--rounds", "-2"], "--rounds must be 1–1000 (got -2)."),
            (FetchBenchCommand.self, ["--page-read-size", "0"], "--page-read-size must be 1024–1048576 bytes"),
            (ShelfBenchCommand.self, ["--database", "x.sqlite", "--users", "0"], "--users must be 4–10000000"),
            (ShelfBenchCommand.self, ["--database", "x.sqlite", "--messages", "0"], "--messages must be from --items"),
            (
                ShelfBenchCommand.self, ["--database", "x.sqlite", "--conversations", "0"],
                "--conversations must be 1–100000"
            ),
        ]
        for (command, arguments, expected) in cases {
            let message = command.message(parsing: arguments)
            #expect(message.contains(expected), "\(command) \(arguments): \(message)")
        }
        #expect(FetchBenchCommand.message(parsing: ["--concurrency", "1, 16,128"]) == "")
    }

}

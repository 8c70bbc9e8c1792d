import Foundation
import TestSupport
import Testing

@testable import sharepipe_dev

/// `sharepipe-dev conformance --floor`: a run that measured nothing, or a floor that is never checked,
/// must not pass.
@Suite("sharepipe-dev conformance")
struct ConformanceCommandTests {
    static func floorFile(_ json: String, in folder: URL) throws -> String {
        let file = folder.appendingPathComponent("floor-\(UUID().uuidString).json")
        try Data(json.utf8).write(to: file)
        return file.path
    }

    @Test("A missing or empty corpus is an error that says what to pass")
    func missingCorpus() async throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let floor = try Self.floorFile(#"{"tokenizer.passed": 5187}"#, in: folder)
        let missing = try await SharePipeExecutable.developer.run([
            "conformance", "--corpus", "/nonexistent", "--floor", floor,
        ])
        #expect(missing.status == 64, "\(missing.output)")
        #expect(missing.output.contains("No corpus folder at /nonexistent: pass --corpus DIR"), "\(missing.output)")
        let empty = try await SharePipeExecutable.developer.run([
            "conformance", "--corpus", folder.path, "--floor", floor,
        ])
        #expect(empty.status == 64, "\(empty.output)")
        #expect(empty.output.contains("so nothing would be measured"), "\(empty.output)")
    }

    /// A damaged pages.json printed Foundation's "The data is not in the correct format.", naming no
    /// file; one that was JSON but not a list measured nothing and said nothing.
    @Test("A pages.json that is not JSON, or not a list of pages, is named with what to do")
    func damagedPagesJSON() async throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let pages = folder.appendingPathComponent("pages.json")
        for (text, problem) in [
            (#"[{"html": "a.html","#, "is not valid JSON (Unexpected end of file"),
            (#"{"pages": []}"#, "is not a JSON array of objects"),
        ] {
            try Data(text.utf8).write(to: pages)
            for command in [["conformance"], ["bench", "--peers", ""]] {
                let result = try await SharePipeExecutable.developer.run(command + ["--corpus", folder.path])
                #expect(result.status == 1, "\(command): \(result.output)")
                #expect(result.output.contains("\(pages.path) \(problem)"), "\(command): \(result.output)")
                #expect(result.output.contains("restore it from the corpus"), "\(command): \(result.output)")
            }
        }
    }

    /// bench-fetch divided by the number of pages: an empty corpus trapped after the memory round.
    @Test("bench-fetch on a corpus that lists no pages says so")
    func fetchBenchWithoutPages() async throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("[]".utf8).write(to: folder.appendingPathComponent("pages.json"))
        let result = try await SharePipeExecutable.developer.run([
            "bench-fetch", "--corpus", folder.path, "--rounds", "1",
        ])
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("pages.json lists no pages; give a corpus with some."), "\(result.output)")
    }

    /// A token array shorter than html5lib writes them was indexed past its end.
    @Test("Short html5lib token arrays are read with their missing members absent, never a trap")
    func shortTokenArrays() {
        #expect(TokenizerConformance.token(from: ["DOCTYPE", "html"], doubleEscaped: false) != nil)
        #expect(TokenizerConformance.token(from: ["StartTag", "a"], doubleEscaped: false) != nil)
    }

    @Test("The floor file is read before the run: missing, not JSON, or naming an unknown figure")
    func badFloorFiles() async throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        // A corpus part that does not exist is never read: the floor is refused first.
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("html5lib/tokenizer"),
            withIntermediateDirectories: true
        )
        let cases = [
            ("/nonexistent/floor.json", "No floor file at /nonexistent/floor.json"),
            (try Self.floorFile("{not json", in: folder), "is not valid JSON"),
            (try Self.floorFile(#"{"extraction.whole.titel": 98.4}"#, in: folder), "names “extraction.whole.titel”"),
            (try Self.floorFile(#"{"tokenizer.passed": true}"#, in: folder), "every floor must be a number"),
            (
                try Self.floorFile(#"{"tokenizer.passed": "all"}"#, in: folder),
                "every floor must be a number"
            ),
        ]
        for (floor, expected) in cases {
            let result = try await SharePipeExecutable.developer.run([
                "conformance", "--corpus", folder.path, "--floor", floor,
            ])
            #expect(result.status == 64, "\(floor): \(result.output)")
            #expect(result.output.contains(expected), "\(floor): \(result.output)")
            #expect(!result.output.contains("NSCocoaErrorDomain"))
            #expect(!result.output.contains("tokenizer:"), "nothing is measured first: \(result.output)")
        }
    }

    @Test("A floor whose figure was not measured fails")
    func unmeasuredFloorFails() throws {
        let measured = ConformanceFigures(values: ["tokenizer.passed": 5187])
        let floors = ConformanceFigures(values: ["tokenizer.passed": 5187, "extraction.whole.title": 98.4])
        #expect(
            measured.drops(below: floors) == [
                "extraction.whole.title was not measured (the corpus lacks its part), the floor is 98.4"
            ]
        )
    }

    @Test("The repository's floor file names only figures conformance measures")
    func repositoryFloorFileLoads() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let floors = try ConformanceFigures.load(from: root.appendingPathComponent(".ci/conformance-floor.json"))
        #expect(floors.values.count == 20)
    }

    /// On Linux JSONSerialization's numbers 0 and 1 passed for true and false, and were refused.
    @Test("Floors of 0, 1 and 1.0 are numbers")
    func smallFloors() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = try Self.floorFile(
            #"{"tokenizer.passed": 1, "encoding.prescanDecidedPassed": 0, "extraction.whole.title": 1.0}"#,
            in: folder
        )
        let floors = try ConformanceFigures.load(from: URL(fileURLWithPath: file))
        #expect(
            floors.values == ["tokenizer.passed": 1, "encoding.prescanDecidedPassed": 0, "extraction.whole.title": 1]
        )
    }

    /// A corpus with one of its 63 pages passed every floor: the others were skipped unread and the
    /// floors are percentages.
    @Test("A page the corpus lists but that cannot be read fails the run, naming it")
    func missingPage() throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("pages"),
            withIntermediateDirectories: true
        )
        try Data("<title>Here</title>".utf8).write(to: folder.appendingPathComponent("pages/here.html"))
        let pages = folder.appendingPathComponent("pages.json")
        try Data(
            #"""
            [{"name": "here", "html": "pages/here.html", "url": "https://a.example/", "reference": {"title": "Here"}},
             {"name": "gone", "html": "pages/gone.html", "url": "https://b.example/", "reference": {"title": "Gone"}}]
            """#.utf8
        ).write(to: pages)
        #expect {
            _ = try ExtractionConformance.run(pagesJSON: pages, mode: .whole)
        } throws: { error in
            "\(error)".contains("lists 1 page(s) that cannot be read (gone)")
        }
    }
}

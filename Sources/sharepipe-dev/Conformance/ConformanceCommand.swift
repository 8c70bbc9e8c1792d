import ArgumentParser
import Foundation
import SharePipeCLISupport

/// `sharepipe-dev conformance`: measures LinkPreviewCore against the shared test corpora.
struct ConformanceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Check the tokenizer, charset sniffing and extraction against a test corpus."
    )

    @Option(help: "The corpus folder (html5lib/, pages.json, pages/).")
    var corpus: String = "../shared/corpus"

    @Flag(help: "List every failing case.")
    var verbose = false

    @Option(
        help: """
            A JSON file of minimum figures (see .ci/conformance-floor.json), checked before the run; exit non-zero \
            when a figure is below its floor or was not measured.
            """
    )
    var floor: String?

    /// The parts of a corpus, relative to its folder; a run needs at least one.
    static let parts = ["html5lib/tokenizer", "html5lib/encoding", "pages.json"]

    func validate() throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: corpus, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError(
                "No corpus folder at \(corpus): pass --corpus DIR, the folder holding html5lib/, pages.json and pages/."
            )
        }
        let root = URL(fileURLWithPath: corpus)
        guard
            Self.parts.contains(where: { FileManager.default.fileExists(atPath: root.appendingPathComponent($0).path) })
        else {
            throw ValidationError(
                "\(corpus) holds none of \(Self.parts.joined(separator: ", ")), so nothing would be measured: "
                    + "pass --corpus DIR, the folder holding html5lib/, pages.json and pages/."
            )
        }
        if let floor {
            do {
                _ = try ConformanceFigures.load(from: URL(fileURLWithPath: floor))
            } catch let error as CLIError {
                throw ValidationError(error.description)
            }
        }
    }

    func run() async throws {
        // Read before the run, so a bad floor file costs nothing (validate() has checked it too).
        let floors = try floor.map { try ConformanceFigures.load(from: URL(fileURLWithPath: $0)) }
        var figures = ConformanceFigures()
        try measure(into: &figures)
        if let floor, let floors {
            let drops = figures.drops(below: floors)
            if drops.isEmpty {
                print("floors: every figure is at or above \(floor)")
            } else {
                for drop in drops { print("BELOW FLOOR: \(drop)") }
                throw ExitCode(1)
            }
        }
    }

    private func measure(into figures: inout ConformanceFigures) throws {
        let root = URL(fileURLWithPath: corpus)
        try measureTokenizer(root.appendingPathComponent("html5lib/tokenizer"), into: &figures)
        try measureEncoding(root.appendingPathComponent("html5lib/encoding"), into: &figures)
        try measureExtraction(root.appendingPathComponent("pages.json"), into: &figures)
    }

    private func measureTokenizer(_ tokenizerDirectory: URL, into figures: inout ConformanceFigures) throws {
        if FileManager.default.fileExists(atPath: tokenizerDirectory.path) {
            let report = try TokenizerConformance.run(directory: tokenizerDirectory)
            figures.values["tokenizer.passed"] = Double(report.passed)
            figures.values["tokenizer.streamingPassed"] = Double(report.passedStreaming)
            print(
                "tokenizer: \(report.passed)/\(report.total) html5lib cases pass (\(percent(report.passed, report.total)))"
            )
            print("tokenizer, fed 1 byte at a time: \(report.passedStreaming)/\(report.total)")
            print(
                "tokenizer, xmlViolationTests (XML-coercion mode, not WHATWG; not counted): "
                    + "\(report.xmlViolationPassed)/\(report.xmlViolationTotal)"
            )
            if verbose { for failure in report.failures { print("  FAIL \(failure)") } }
        } else {
            print("tokenizer: skipped (no \(tokenizerDirectory.path))")
        }
    }

    private func measureEncoding(_ encodingDirectory: URL, into figures: inout ConformanceFigures) throws {
        if FileManager.default.fileExists(atPath: encodingDirectory.path) {
            let report = try EncodingConformance.run(directory: encodingDirectory)
            figures.values["encoding.prescanDecidedPassed"] = Double(report.prescanDecidedPassed)
            print(
                "encoding, cases a <meta> prescan decides: \(report.prescanDecidedPassed)/\(report.prescanDecidedTotal)"
            )
            print(
                "encoding, all cases (ASCII-only documents are UTF-8 here, windows-1252 there): \(report.passed)/\(report.total)"
            )
            if verbose { for failure in report.failures { print("  FAIL \(failure)") } }
        } else {
            print("encoding: skipped (no \(encodingDirectory.path))")
        }
    }

    private func measureExtraction(_ pages: URL, into figures: inout ConformanceFigures) throws {
        if FileManager.default.fileExists(atPath: pages.path) {
            for mode in ExtractionConformance.Mode.allCases {
                let report = try ExtractionConformance.run(pagesJSON: pages, mode: mode)
                for field in ExtractionConformance.fields {
                    figures.values["extraction.\(mode.key).\(field)"] = report.percent(field)
                }
                print("extraction on \(report.pages) pages, \(mode.label):")
                for field in ExtractionConformance.fields {
                    print(
                        "  \(field.padding(toLength: 12, withPad: " ", startingAt: 0)) \(String(format: "%5.1f %%", report.percent(field)))  (\(report.agreed[field, default: 0])/\(report.compared[field, default: 0]))"
                    )
                }
                if verbose {
                    for d in report.disagreements {
                        print(
                            "  DIFF \(d.page) \(d.field): ours=\(d.ours ?? "nil") | reference=\(d.reference ?? "nil")"
                        )
                    }
                }
            }
        } else {
            print("extraction: skipped (no \(pages.path))")
        }
    }

    func percent(_ part: Int, _ whole: Int) -> String {
        whole == 0 ? "n/a" : String(format: "%.2f %%", Double(part) * 100 / Double(whole))
    }
}

import ArgumentParser
import Foundation

/// `sharepipe conformance`: measures LinkPreviewCore against the shared test corpora.
struct ConformanceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Check the tokenizer, charset sniffing and extraction against a test corpus."
    )

    @Option(help: "The corpus folder (html5lib/, pages.json, pages/).")
    var corpus: String = "../shared/corpus"

    @Flag(help: "List every failing case.")
    var verbose = false

    func run() async throws {
        let root = URL(fileURLWithPath: corpus)
        let tokenizerDirectory = root.appendingPathComponent("html5lib/tokenizer")
        if FileManager.default.fileExists(atPath: tokenizerDirectory.path) {
            let report = try TokenizerConformance.run(directory: tokenizerDirectory)
            print("tokenizer: \(report.passed)/\(report.total) html5lib cases pass (\(percent(report.passed, report.total)))")
            print("tokenizer, fed 1 byte at a time: \(report.passedStreaming)/\(report.total)")
            print(
                "tokenizer, xmlViolationTests (XML-coercion mode, not WHATWG; not counted): "
                    + "\(report.xmlViolationPassed)/\(report.xmlViolationTotal)")
            if verbose { report.failures.forEach { print("  FAIL \($0)") } }
        } else {
            print("tokenizer: skipped (no \(tokenizerDirectory.path))")
        }
    }

    func percent(_ part: Int, _ whole: Int) -> String {
        whole == 0 ? "n/a" : String(format: "%.2f %%", Double(part) * 100 / Double(whole))
    }
}

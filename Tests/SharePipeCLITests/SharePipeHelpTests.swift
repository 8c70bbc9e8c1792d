import Foundation
import Testing

/// The product's command line is what a user runs, and nothing else: benchmarks and conformance runs
/// are in `sharepipe-dev`.
@Suite("sharepipe --help")
struct SharePipeHelpTests {
    static let productCommands = ["serve", "users", "devices", "preview", "extract", "login", "share", "inbox"]

    /// The names under `SUBCOMMANDS:` in `help`, in their order.
    static func subcommands(in help: String) -> [String] {
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "SUBCOMMANDS:") else { return [] }
        return lines[(start + 1)...].prefix { !$0.isEmpty }
            // A name starts two spaces in; an abstract that wraps goes on further in.
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) }
    }

    @Test("Lists exactly the product's commands")
    func listsTheProductCommands() async throws {
        let result = try await SharePipeProcess.run(["--help"])
        #expect(result.status == 0, "\(result.output)")
        #expect(Self.subcommands(in: result.output) == Self.productCommands, "\(result.output)")
        #expect(!result.output.contains("bench"), "\(result.output)")
        #expect(!result.output.contains("conformance"), "\(result.output)")
    }

    @Test("The developer's commands are not there, hidden or not")
    func hasNoDeveloperCommands() async throws {
        for command in ["bench", "bench-fetch", "bench-shelf", "bench-inbox", "conformance"] {
            let result = try await SharePipeProcess.run([command])
            #expect(result.status == 64, "\(command): \(result.output)")
            #expect(result.output.contains("Unexpected argument '\(command)'"), "\(result.output)")
        }
        let serveOnly = try await SharePipeProcess.run(["bench-fetch", "--serve-only"])
        #expect(serveOnly.status == 64, "\(serveOnly.output)")
    }
}

import Foundation
import TestSupport
import Testing

/// `sharepipe-dev` holds what measures the code, which the product's `sharepipe` does not.
@Suite("sharepipe-dev --help")
struct SharePipeDevHelpTests {
    @Test("Lists the benchmarks and the conformance run, not the product's commands")
    func listsTheDeveloperCommands() async throws {
        let result = try await SharePipeExecutable.developer.run(["--help"])
        #expect(result.status == 0, "\(result.output)")
        let lines = result.output.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        for command in ["conformance", "bench", "bench-fetch", "bench-shelf", "bench-inbox"] {
            #expect(lines.contains { $0.hasPrefix(command + " ") }, "\(command): \(result.output)")
        }
        #expect(!lines.contains { $0.hasPrefix("serve ") }, "\(result.output)")
    }
}

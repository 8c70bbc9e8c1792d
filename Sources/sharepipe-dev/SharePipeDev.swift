import ArgumentParser

/// `sharepipe-dev`: the developer's tool beside the product's `sharepipe`. It measures the code
/// (benchmarks, conformance against test corpora) and ships to no user.
@main
struct SharePipeDev: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sharepipe-dev",
        abstract: "Measure SharePipe: conformance against test corpora, and benchmarks (build with -c release).",
        subcommands: [
            ConformanceCommand.self, BenchCommand.self, FetchBenchCommand.self, ShelfBenchCommand.self,
            InboxBenchCommand.self, UploadBenchCommand.self,
        ]
    )
}

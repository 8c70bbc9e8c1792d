import ArgumentParser

/// The `sharepipe` command line.
@main
struct SharePipe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sharepipe",
        abstract: "Share links with rich previews that tell the truth.",
        subcommands: [
            PreviewCommand.self, ExtractCommand.self, ConformanceCommand.self, BenchCommand.self,
            FetchBenchCommand.self,
        ]
    )
}

import ArgumentParser

/// The `sharepipe` command line.
@main
struct SharePipe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sharepipe",
        abstract: "Share links with rich previews that tell the truth.",
        subcommands: [
            ServeCommand.self, UsersCommand.self, DevicesCommand.self, PreviewCommand.self, ExtractCommand.self,
            ConformanceCommand.self, BenchCommand.self, FetchBenchCommand.self, ShelfBenchCommand.self,
            // SharePipeKit (issue 6): the app's and the share extension's roles.
            LoginCommand.self, ShareCommand.self, InboxCommand.self, InboxBenchCommand.self,
        ]
    )
}

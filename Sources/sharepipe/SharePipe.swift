import ArgumentParser

/// The `sharepipe` command line: what a user runs. Benchmarks and conformance runs are in
/// `sharepipe-dev`.
@main
struct SharePipe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sharepipe",
        abstract: "Share links with rich previews that tell the truth.",
        subcommands: [
            ServeCommand.self, UsersCommand.self, DevicesCommand.self, PreviewCommand.self, ExtractCommand.self,
            // The app's and the share extension's roles, through SharePipeKit.
            LoginCommand.self, ShareCommand.self, InboxCommand.self,
        ]
    )
}

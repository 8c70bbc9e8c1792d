import ArgumentParser
import Foundation
import SharePipeCLISupport
import SharePipeProtocol
import SharePipeServer

extension UsersCommand {
    /// `sharepipe users delete HANDLE --yes`: deletes an account straight in the database, as its
    /// owner can in Settings on the web page (``Database/deleteAccount(userID:)``).
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete an account: what others received from it stays with them, from \"Deleted account\".",
            discussion: """
                Its sessions, devices, shelf, search, links kept for itself (with their files) and public pages \
                are removed, and it leaves every conversation; shares others received stay with them. The handle \
                is freed. This cannot be undone, so --yes is required.
                """
        )

        @Argument(help: "The handle of the account (a leading @ is dropped).")
        var handle: String

        @Flag(help: "Confirm: deleting an account cannot be undone.")
        var yes = false

        @OptionGroup var database: DatabaseOption

        func validate() throws {
            _ = try User.handle(argument: handle)
            guard yes else {
                throw ValidationError("Deleting @\(try User.handle(argument: handle)) cannot be undone: add --yes to go ahead.")
            }
        }

        func run() async throws {
            let handle = try User.handle(argument: handle)
            let database = try await self.database.open(.existing, logger: .admin)
            let deletion: AccountDeletion?
            do {
                deletion =
                    if let user = try await database.user(handle: handle) {
                        try await database.deleteAccount(userID: user.id)
                    } else {
                        nil
                    }
            } catch {
                try await database.close()
                throw error
            }
            try await database.close()
            guard let deletion else { throw CLIError("No account @\(handle) in \(self.database.name).") }
            print(
                "Deleted @\(handle) in \(self.database.name): left \(deletion.conversationsLeft) conversation(s), removed "
                    + "\(deletion.savedSharesRemoved) share(s) kept for itself; \(deletion.sharesKeptForRecipients) share(s) "
                    + "others received stay with them, from \"Deleted account\"."
            )
        }
    }
}

import ArgumentParser
import Foundation
import Logging
import SharePipeCLISupport
import SharePipeProtocol
import SharePipeServer

/// `sharepipe users add HANDLE`: an account, straight in the database (the first one, or when
/// sign-up is off); `sharepipe users delete HANDLE --yes` deletes one.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Manage accounts.",
        subcommands: [Add.self, Delete.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create an account (and the database, when there is none yet)."
        )

        @Argument(help: "The handle: 1–32 of a–z, 0–9 and _ (a leading @ is dropped).")
        var handle: String

        @Option(help: "The name shown to others, 1–\(User.maxDisplayNameLength) characters (default: the handle).")
        var displayName: String?

        @Option(
            help: """
                A password for signing in with sharepipe login and on the web page (else SHAREPIPE_PASSWORD). \
                Without one, the account has only the devices sharepipe devices add makes.
                """
        )
        var password: String?

        @OptionGroup var database: DatabaseOption

        func validate() throws {
            _ = try User.handle(argument: handle)
            if let displayName { _ = try Self.displayName(from: displayName) }
            if let password, let problem = Passwords.problem(with: password) { throw ValidationError(problem) }
        }

        /// The display name as the server keeps it: trimmed, within ``User/maxDisplayNameLength``.
        static func displayName(from text: String) throws -> String {
            guard let name = User.displayName(from: text) else {
                let count = text.trimmingCharacters(in: .whitespacesAndNewlines).count
                throw ValidationError(
                    "--display-name must be 1–\(User.maxDisplayNameLength) characters (got \(count))."
                )
            }
            return name
        }

        /// `--password`, else SHAREPIPE_PASSWORD; an empty variable counts as unset.
        static func password(option: String?, environment: [String: String]) -> String? {
            option ?? LoginCommand.password(fromEnvironment: environment)
        }

        func run() async throws {
            let handle = try User.handle(argument: handle)
            let secret = Self.password(option: password, environment: ProcessInfo.processInfo.environment)
            if let secret, let problem = Passwords.problem(with: secret) {
                throw CLIError("SHAREPIPE_PASSWORD: \(problem)")
            }
            let name = try displayName.map(Self.displayName(from:)) ?? handle
            let database = try await self.database.open(.existingOrNew, logger: .admin)
            var hash: String?
            if let secret { hash = try await Passwords.hash(secret) }
            let user: User
            do {
                user = try await database.createUser(handle: handle, displayName: name, passwordHash: hash)
            } catch let error as StorageError {
                try await database.close()
                let message = error.message.hasSuffix(".") ? String(error.message.dropLast()) : error.message
                throw CLIError("\(message) in \(self.database.name).")
            }
            try await database.close()
            print("Created @\(user.handle) (\(user.id)) in \(self.database.name).")
            if hash == nil {
                print(
                    "It has no password: it cannot sign in with sharepipe login or on the web page, only use the "
                        + "devices sharepipe devices add makes. No command adds a password later; give --password "
                        + "(or SHAREPIPE_PASSWORD) when making an account that signs in."
                )
            }
            print("Next: sharepipe devices add \(user.handle) \"My phone\"\(self.database.hintArgument)")
        }
    }
}

extension Logger {
    /// The logger of the admin commands: warnings only, so opening (and migrating) the database
    /// prints nothing unless something is wrong.
    static var admin: Logger {
        var logger = Logger(label: "sharepipe")
        logger.logLevel = .warning
        return logger
    }
}

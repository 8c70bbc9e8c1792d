import ArgumentParser
import Foundation
import Logging
import SharePipeServer

/// `sharepipe users add HANDLE`: an account, straight in the database (the first one, or when
/// sign-up is off).
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Manage accounts.",
        subcommands: [Add.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create an account.")

        @Argument(help: "The handle: 1–32 of a–z, 0–9 and _.")
        var handle: String

        @Option(help: "The name shown to others (default: the handle).")
        var displayName: String?

        @Option(help: "A password for signing in on the web (read from SHAREPIPE_PASSWORD if not given).")
        var password: String?

        @OptionGroup var database: DatabaseOption

        func validate() throws {
            guard User.handle(from: handle) != nil else {
                throw ValidationError("'\(handle)' is not a handle. \(User.handleRule)")
            }
            if let password, let problem = Passwords.problem(with: password) { throw ValidationError(problem) }
        }

        func run() async throws {
            let logger = Logger(label: "sharepipe")
            let database = try await Database.open(try self.database.location(), logger: logger)
            let secret = password ?? ProcessInfo.processInfo.environment["SHAREPIPE_PASSWORD"]
            if let secret, let problem = Passwords.problem(with: secret) { throw CLIError(problem) }
            var hash: String?
            if let secret { hash = try await Passwords.hash(secret) }
            do {
                let user = try await database.createUser(
                    handle: User.handle(from: handle) ?? handle,
                    displayName: displayName ?? handle,
                    passwordHash: hash
                )
                print("Created @\(user.handle) (\(user.id)). Next: sharepipe devices add \(user.handle) \"My phone\"")
            } catch let error as StorageError {
                try await database.close()
                throw CLIError(error.message)
            }
            try await database.close()
        }
    }
}

/// `sharepipe devices add HANDLE NAME`: a device and its two tokens, printed once.
struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "Manage devices and their tokens.",
        subcommands: [Add.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a device and print its app token and share token (shown once)."
        )

        @Argument(help: "The account's handle.")
        var handle: String

        @Argument(help: "A name for the device, e.g. \"Ada's iPhone\".")
        var name: String

        @OptionGroup var database: DatabaseOption

        func run() async throws {
            let logger = Logger(label: "sharepipe")
            let database = try await Database.open(try self.database.location(), logger: logger)
            guard let user = try await database.user(handle: handle) else {
                try await database.close()
                throw CLIError("No account @\(handle.lowercased()); create it with: sharepipe users add \(handle)")
            }
            let (device, appToken, shareToken) = try await database.createDevice(userID: user.id, name: name)
            try await database.close()
            print(
                """
                Device \(device.id) for @\(user.handle). These tokens are shown once; only their hashes are kept.
                app token:   \(appToken)
                share token: \(shareToken)
                """
            )
        }
    }
}

import ArgumentParser
import Foundation
import SharePipeCLISupport
import SharePipeProtocol
import SharePipeServer

/// `sharepipe devices add HANDLE NAME`: a device and its two tokens, printed once.
struct DevicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "Manage devices and their tokens.",
        subcommands: [Add.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register a device and print its app token and share token (shown once).",
            discussion: "The database must exist: run this where `sharepipe serve` keeps it, or pass --database."
        )

        @Argument(help: "The account's handle (a leading @ is dropped).")
        var handle: String

        @Argument(help: "A name for the device, 1–\(Device.maxNameLength) characters, e.g. \"Ada's iPhone\".")
        var name: String

        @OptionGroup var database: DatabaseOption

        func validate() throws {
            _ = try User.handle(argument: handle)
            _ = try Device.name(argument: name, option: "The device's name")
        }

        func run() async throws {
            let handle = try User.handle(argument: handle)
            let name = try Device.name(argument: name, option: "The device's name")
            let database = try await self.database.open(.existing, logger: .admin)
            guard let user = try await database.user(handle: handle) else {
                try await database.close()
                throw CLIError(
                    "No account @\(handle) in \(self.database.name); create it with: "
                        + "sharepipe users add \(handle)\(self.database.hintArgument)"
                )
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

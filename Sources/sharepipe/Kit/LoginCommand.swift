import ArgumentParser
import Foundation
import SharePipeCLISupport
import SharePipeKit
import SharePipeProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `sharepipe login`: the app's sign-in — gets this device's tokens from the server and stores them
/// in the container, bound to its install marker.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign this container in to a server (asks for the handle and password).",
        discussion: "The password comes from SHAREPIPE_PASSWORD, else it is asked for on the terminal."
    )

    @Option(help: "The server's base URL, e.g. http://127.0.0.1:8080.")
    var server: String

    @Option(help: "The account's handle (asked for when not given; a leading @ is dropped).")
    var handle: String?

    @Option(help: "A name for this device, 1–\(Device.maxNameLength) characters.")
    var deviceName: String = String("sharepipe on \(ProcessInfo.processInfo.hostName)".prefix(Device.maxNameLength))

    @OptionGroup var container: ContainerOption

    func validate() throws {
        _ = try serverURL()
        if let handle { _ = try Self.handle(from: handle) }
        _ = try Device.name(argument: deviceName, option: "--device-name")
    }

    /// `--server` with its scheme lowercased (`HTTP://…` is a valid URL that URLSession refuses as
    /// unsupported).
    func serverURL() throws -> URL {
        guard var components = URLComponents(string: server), let scheme = components.scheme?.lowercased(),
            ["http", "https"].contains(scheme), components.host?.isEmpty == false
        else { throw ValidationError("--server needs an http(s) URL such as http://127.0.0.1:8080.") }
        components.scheme = scheme
        guard let url = components.url else {
            throw ValidationError("--server needs an http(s) URL such as http://127.0.0.1:8080.")
        }
        return url
    }

    /// The handle as the server keeps it (``User/handle(argument:)``: lower-cased, without a leading `@`).
    static func handle(from text: String) throws -> String {
        try User.handle(argument: text.trimmingCharacters(in: .whitespaces))
    }

    /// SHAREPIPE_PASSWORD, unless it is unset or empty (an empty password would only be refused).
    static func password(fromEnvironment environment: [String: String]) -> String? {
        environment["SHAREPIPE_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
    }

    func run() async throws {
        let url = try serverURL()
        let account = container.account
        // Before the server is asked, so a container that cannot be used leaves no device behind.
        do {
            _ = try account.stateForApp()  // establishes the install marker, wipes a stale token
        } catch let error as CredentialStoreError where error.underlying is DecodingError {
            // A damaged credential is what signing in again replaces; one that cannot be read or
            // replaced (a folder, no permission) fails below, before the server is asked.
        } catch {
            throw CLIError("Cannot use the container \(container.path): \(error)")
        }
        let handle: String
        do {
            handle = try Self.handle(from: self.handle ?? Self.ask("Handle: "))
        } catch let error as ValidationError {
            throw CLIError(error.message)
        }
        let password =
            try Self.password(fromEnvironment: ProcessInfo.processInfo.environment) ?? Self.askSecret("Password: ")
        // Signed in here before, to this server as this account: that device signs in again rather
        // than another being added beside it.
        let previous = Self.previousDevice(in: account, server: url, handle: handle)
        let result: DeviceSignIn.Result
        do {
            result = try await DeviceSignIn(server: url, transport: AsyncHTTPTransport.shared).signIn(
                handle: handle,
                password: password,
                deviceName: Device.name(argument: deviceName, option: "--device-name"),
                replacing: previous
            )
        } catch let failure as DeviceSignIn.Failure {
            throw CLIError(failure.message)
        }
        do {
            try account.signIn(
                server: url,
                shareToken: result.shareToken,
                appToken: result.appToken,
                userID: result.userID,
                deviceID: result.deviceID,
                handle: handle
            )
        } catch {
            throw CLIError("Signed in, but the token could not be stored in \(container.path): \(error)")
        }
        let waiting = (try? container.inbox().count) ?? 0
        let again = previous == result.deviceID ? ", signed in again" : ""
        print("Signed in as @\(handle) (device \(result.deviceID)\(again)).")
        if waiting > 0 {
            print(
                "\(waiting) saved share(s) wait: send them with "
                    + "sharepipe inbox drain --container \(ShellWord.quoted(container.path))"
            )
        }
    }

    /// The device this container was signed in as, when it was to `server` as `handle` (the same
    /// origin and account); nil otherwise, or when nothing usable is stored.
    static func previousDevice(in account: ShareAccount, server: URL, handle: String) -> UUID? {
        guard let stored = try? account.store.load(), stored.handle == handle,
            stored.server.scheme == server.scheme, stored.server.host()?.lowercased() == server.host()?.lowercased(),
            stored.server.port == server.port
        else { return nil }
        return stored.deviceID
    }

    /// A line from standard input after `prompt`; `missing` is the error when none comes.
    static func ask(_ prompt: String, missing: String = "No handle given: pass --handle; nothing was changed.") throws -> String {
        print(prompt, terminator: "")
        fflush(nil)
        guard let line = readLine(), !line.isEmpty else { throw CLIError(missing) }
        return line
    }

    static func askSecret(_ prompt: String) throws -> String {
        guard isatty(STDIN_FILENO) != 0 else {
            // Piped: the password is the next line, as `echo … | sharepipe login` gives it.
            return try ask(
                prompt,
                missing: "No password given: set SHAREPIPE_PASSWORD, or run sharepipe login on a terminal; "
                    + "nothing was changed."
            )
        }
        guard let text = SecretPrompt.read(prompt), !text.isEmpty else {
            throw CLIError("No password given; nothing was changed.")
        }
        return text
    }
}

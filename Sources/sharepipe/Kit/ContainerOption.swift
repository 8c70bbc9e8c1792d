import ArgumentParser
import Foundation
import SharePipeCLISupport
import SharePipeKit

/// `--container DIR`: the folder that plays the App Group container shared by the app and its share
/// extension — the inbox, the install marker and (on Linux) the credential file live in it.
struct ContainerOption: ParsableArguments {
    @Option(
        name: .customLong("container"),
        help: "The shared container folder (inbox, install marker, credential) (env SHAREPIPE_CONTAINER)."
    )
    var path: String = ProcessInfo.processInfo.environment["SHAREPIPE_CONTAINER"] ?? ""

    func validate() throws {
        guard !path.isEmpty else {
            throw ValidationError("Give the container folder with --container DIR (or SHAREPIPE_CONTAINER).")
        }
    }

    var url: URL { URL(fileURLWithPath: path, isDirectory: true) }

    /// The account: a 0600 credential file in the container, bound to its install marker.
    var account: ShareAccount {
        ShareAccount(store: FileCredentialStore(file: url.appendingPathComponent("credentials.json")), container: url)
    }

    /// The inbox in `<container>/inbox`, made (with the container) when it does not exist.
    func inbox() throws -> ShareInbox {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            return try ShareInbox(folder: url.appendingPathComponent("inbox"))
        } catch let error as ShareInboxError {
            throw CLIError(error.message)
        } catch {
            throw CLIError("Cannot use the container \(path): \(error.localizedDescription)")
        }
    }

    /// The inbox of a container that already exists: reading or sending from a mistyped path says so
    /// instead of making an empty container there.
    func existingInbox() throws -> ShareInbox {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else {
            throw CLIError(
                "No container at \(path): check the path (sharepipe share and sharepipe login make one)."
            )
        }
        return try inbox()
    }

    /// The hint printed when the container has no usable credential: with the server and handle it
    /// was last signed in with, when it still holds them (a refused token stays, marked).
    var loginHint: String {
        let last = try? account.store.load()
        let server = last.map { ShellWord.quoted($0.server.absoluteString) } ?? "URL"
        let handle = last?.handle.map { " --handle \(ShellWord.quoted($0))" } ?? ""
        return "sharepipe login --server \(server)\(handle) --container \(ShellWord.quoted(path))"
    }
}

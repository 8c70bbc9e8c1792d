import ArgumentParser
import Foundation
import SharePipeKit
import SharePipeProtocol

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `sharepipe share [URL] [--attach FILE…]`: the share extension's role — persist the share first, then upload it, or
/// keep it and say so. Exits 0 whenever the share was saved (sent or waiting), 1 when it was not.
struct ShareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Share a link, files or both as the share extension does: save it, then send it or say it waits.",
        discussion: """
            Give a link, files, or both: each argument that names an existing file is attached, as \
            with --attach; the other, at most one, is the link.
            """
    )

    @Argument(help: "The link to share (http or https), files to attach, or both.")
    var items: [String] = []

    @Option(help: "Text shared with the link.")
    var text: String?

    @Option(help: "A note for the recipients.")
    var note: String?

    @Option(name: .customLong("to"), help: "A recipient's handle (repeatable).")
    var recipients: [String] = []

    @Option(
        name: .customLong("attach"),
        help: "A file to attach (repeatable), at most 10 of up to 25 MiB: uploaded (resumably) before the share."
    )
    var attachments: [String] = []

    @Flag(help: "Only save the share; leave sending to the app (sharepipe inbox drain).")
    var noUpload = false

    @OptionGroup var container: ContainerOption

    func validate() throws {
        if try link() == nil, files.isEmpty, text == nil {
            throw ValidationError("Give a link to share, a file to attach, or both.")
        }
        if files.count > ShareLimits.default.maxAttachments {
            throw ValidationError(
                "\(files.count) files: a share carries at most \(ShareLimits.default.maxAttachments); share the rest in another."
            )
        }
    }

    /// The arguments that name existing files, then the `--attach` ones.
    var files: [String] { items.filter(Self.isFile) + attachments }

    /// Whether an argument names a file (not a directory) rather than a link.
    private static func isFile(_ argument: String) -> Bool {
        var isDirectory: ObjCBool = false
        return !argument.lowercased().hasPrefix("http")
            && FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    /// The link to share, read and checked as the server reads and checks it (`WebURLRules`): an
    /// absolute http(s) URL, its escapes kept as typed (`URL(string:)` would encode the `%` of every
    /// escape again as soon as one character needs encoding, and share another URL). `nil` when none
    /// was given.
    func link() throws -> URL? {
        let links = items.filter { !Self.isFile($0) }
        guard let url = links.first else { return nil }
        guard links.count == 1 else {
            let listed = links.map { String(reflecting: $0) }.joined(separator: ", ")
            throw ValidationError("\(listed): a share has one link, and these are not files.")
        }
        switch WebURLRules.check(url, field: "The link", maxLength: ShareLimits().maxURLLength) {
        case .success(let link): return link
        case .failure(let problem):
            throw ValidationError("\(String(reflecting: url)): \(problem.detail) No file has that name either.")
        }
    }

    func run() async throws {
        let link = try link()
        let inbox = try container.inbox()
        let account = container.account
        // Saved under the signed-in user by the runner (ShareAccount.userForNewShares).
        let item = ShareItem(
            url: link,
            text: text,
            note: note,
            recipients: recipients.map { $0.hasPrefix("@") || $0.hasPrefix("conversation:") ? $0 : "@" + $0 }
        )
        let contents = files.map(Self.content(of:))
        let runner = ShareFlowRunner(inbox: inbox, account: account) {
            var uploader = ShareUploader(credential: $0, transport: AsyncHTTPTransport.shared)
            uploader.progress = UploadProgressLine.reporter()
            return uploader
        }
        let result = await runner.share(
            item,
            attachments: contents,
            upload: !noUpload,
            host: ConsoleShareHost(loginHint: container.loginHint)
        )
        if !result.saved { throw ExitCode(1) }
    }

    /// The file to attach, copied by the inbox (which checks its size first and never loads it whole).
    static func content(of path: String) -> ShareAttachment.Content {
        let types = [
            "jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif",
            "heic": "image/heic", "pdf": "application/pdf", "txt": "text/plain",
        ]
        let name = URL(fileURLWithPath: path).lastPathComponent
        let type = types[URL(fileURLWithPath: path).pathExtension.lowercased()] ?? "application/octet-stream"
        return ShareAttachment.Content(name: name, contentType: type, file: URL(fileURLWithPath: path))
    }
}

/// The command line as a share extension's host: it prints what an extension shows, and can
/// neither post notifications nor open an app. It prints `saved <id>` first once the share is in the
/// inbox (the reliability tests read it).
struct ConsoleShareHost: ShareFlowHost {
    let loginHint: String

    func abilities() async -> HostAbilities { HostAbilities(notificationsAllowed: false, canOpenApp: false) }

    func persisted(_ item: ShareItem) async {
        print("saved \(item.id)")
        fflush(nil)
    }

    func show(_ message: String) async {
        print(message)
        if message == ShareFlow.Message.savedSignIn { print("Sign in with: \(loginHint)") }
        fflush(nil)
    }

    func postNotification(_ message: String) async { print("notification: \(message)") }

    func openApp() async -> Bool { false }
}

import ArgumentParser
import Foundation
import SharePipeKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `sharepipe share URL`: the share extension's role — persist the share first, then upload it, or
/// keep it and say so. Exits 0 whenever the share was saved (sent or waiting), 1 when it was not.
struct ShareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Share a link as the share extension does: save it, then send it or say it waits."
    )

    @Argument(help: "The link to share (http or https).")
    var url: String

    @Option(help: "Text shared with the link.")
    var text: String?

    @Option(help: "A note for the recipients.")
    var note: String?

    @Option(name: .customLong("to"), help: "A recipient's handle (repeatable).")
    var recipients: [String] = []

    @Option(name: .customLong("attach"), help: "A file to attach (repeatable; kept on this device).")
    var attachments: [String] = []

    @Flag(help: "Only save the share; leave sending to the app (sharepipe inbox drain).")
    var noUpload = false

    @OptionGroup var container: ContainerOption

    func run() async throws {
        guard let link = URL(string: url), ["http", "https"].contains(link.scheme?.lowercased() ?? ""), link.host != nil
        else { throw ValidationError("'\(url)' is not an http(s) link.") }
        let inbox = try container.inbox()
        let account = container.account
        let credential = (try? account.state()) ?? .missing
        var accountID: UUID?
        if case .valid(let stored) = credential { accountID = stored.userID }
        let item = ShareItem(
            account: accountID,
            url: link,
            text: text,
            note: note,
            recipients: recipients.map { $0.hasPrefix("@") || $0.hasPrefix("conversation:") ? $0 : "@" + $0 }
        )
        let persistence: ShareFlow.Persistence
        do {
            let contents = try attachments.map(Self.content(of:))
            try inbox.add(item, attachments: contents)
            persistence = .persisted
            print("saved \(item.id)")
            fflush(nil)
        } catch let error as ShareInboxError {
            persistence = .failed(reason: error.message)
        } catch let error as CLIError {
            persistence = .failed(reason: error.description)
        }
        let runner = ShareFlowRunner(
            inbox: inbox,
            account: account,
            credential: noUpload ? .missing : credential,
            loginHint: container.loginHint
        )
        let saved = await runner.run(item, persistence: persistence, upload: !noUpload)
        if !saved { throw ExitCode(1) }
    }

    static func content(of path: String) throws -> ShareAttachment.Content {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CLIError("Cannot read the attachment \(path): check that the file exists and is readable.")
        }
        let types = ["jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif",
                     "heic": "image/heic", "pdf": "application/pdf", "txt": "text/plain"]
        let name = URL(fileURLWithPath: path).lastPathComponent
        let type = types[URL(fileURLWithPath: path).pathExtension.lowercased()] ?? "application/octet-stream"
        return ShareAttachment.Content(name: name, contentType: type, data: data)
    }
}

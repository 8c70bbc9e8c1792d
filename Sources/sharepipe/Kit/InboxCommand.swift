import ArgumentParser
import Foundation
import SharePipeCLISupport
import SharePipeKit

/// `sharepipe inbox list|drain|clear`: the app's role over the container's inbox.
struct InboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inbox",
        abstract: "The saved shares waiting in a container, as the app sees them.",
        subcommands: [List.self, Drain.self, Discard.self, Clear.self]
    )

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the waiting shares, oldest first.")
        @OptionGroup var container: ContainerOption

        func run() async throws {
            let inbox = try container.existingInbox()
            let pending = try inbox.pending()
            if pending.isEmpty { print("The inbox is empty.") }
            // Read only (`state()`): listing changes nothing, not even the install marker.
            let signedOutReason: String? =
                switch (try? container.account.state())?.kind {
                case .valid: nil
                case .expired: "the server refused this device's token"
                default: "not signed in"
                }
            for share in pending {
                var line = "\(share.item.id)  \(share.item.createdAt.formatted(.iso8601))  "
                // What the sharing app gave reaches a terminal: one line, no control characters.
                line +=
                    share.item.url?.absoluteString ?? share.item.text.map { PlainText.line($0, maxLength: 200) }
                    ?? "(attachments)"
                if !share.item.attachments.isEmpty { line += "  +\(share.item.attachments.count) file(s)" }
                if share.isClaimed { line += "  [being sent]" }
                if let rejection = share.state.rejection {
                    line += "  [refused by the server: \(rejection)]"
                } else if share.state.attempts > 0 {
                    line += "  [\(share.state.attempts) attempt(s)"
                    if let next = share.state.dueDate(at: Date(), longestWait: inbox.retryPolicy.maxDelay),
                        next > Date()
                    {
                        line += ", next after \(next.formatted(.iso8601))"
                    }
                    line += share.state.lastError.map { ": \($0)]" } ?? "]"
                } else if let reason = share.state.lastError ?? signedOutReason {
                    line += "  [waiting: \(reason)]"  // held for an account, or signed out; not yet tried
                }
                print(line)
                for file in InboxAttachmentLines.lines(of: share.item, state: share.state) { print(file) }
            }
            if let signedOutReason, !pending.isEmpty {
                print("These wait: \(signedOutReason). Sign in with: \(container.loginHint)")
            }
            let quarantined = inbox.quarantined()
            if !quarantined.isEmpty {
                print("\(quarantined.count) unreadable record(s) set aside in \(inbox.folder.path)/quarantine")
            }
            let locked = inbox.unreadableRecords()
            if !locked.isEmpty {
                print(
                    "\(locked.count) share(s) this user may not read (written under sudo?), kept in "
                        + "\(inbox.folder.path)/items until they can be read: give them back with chown."
                )
            }
        }
    }

    struct Drain: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send the waiting shares, oldest first.",
            discussion: """
                Exits 0 when everything was sent or waits to be retried, 3 when the account needs signing in, \
                and 4 when shares the server refused wait in the inbox (inbox list says why; inbox discard \
                removes one). With --watch it runs until interrupted.
                """
        )
        @OptionGroup var container: ContainerOption

        @Flag(
            help:
                "Keep running and send whatever is added, and retry failed shares when their wait ends, until interrupted."
        )
        var watch = false

        func run() async throws {
            let inbox = try container.existingInbox()
            guard watch else {
                try await drainOnce(inbox)
                return
            }
            // Woken by the change signal, and when the next share backing off is due.
            let (wakeups, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            let changes = Task {
                for await _ in inbox.changes() { wake.yield() }
                wake.finish()
            }
            defer { changes.cancel() }
            var retry: Task<Void, Never>?
            var signedOut = false
            for await _ in wakeups {
                // Signed out, the credential is looked at again every few seconds: signing in changes no
                // inbox file, so no change signal would wake the watcher to send what waits.
                let wasSignedOut = signedOut
                signedOut = try await drainOnce(inbox, sayingWhenSignedOut: !wasSignedOut) == .signedOut
                retry?.cancel()
                let wait: Duration? =
                    signedOut
                    ? Self.signInPollInterval
                    : try inbox.nextAttemptDate().map { .seconds(max(0, $0.timeIntervalSinceNow) + 0.05) }
                if let wait {
                    retry = Task {
                        try? await Task.sleep(for: wait)
                        if !Task.isCancelled { wake.yield() }
                    }
                }
            }
        }

        /// How often a watcher that is signed out looks for a credential again.
        static let signInPollInterval = Duration.seconds(2)

        enum PassOutcome { case drained, signedOut }

        /// One drain pass; signed out, says so (when `sayingWhenSignedOut`) and, unless watching, exits 3.
        @discardableResult
        func drainOnce(_ inbox: ShareInbox, sayingWhenSignedOut: Bool = true) async throws -> PassOutcome {
            let account = container.account
            let state: CredentialState
            do {
                state = try account.stateForApp()
            } catch {
                throw CLIError("Cannot read the credential in \(container.path): \(error)")
            }
            guard case .valid(let credential) = state else {
                let reason = state == .expired ? "The server refused this device's token" : "Not signed in"
                if sayingWhenSignedOut {
                    FileHandle.standardError.write(
                        Data("\(reason): \(inbox.count) share(s) wait. Sign in with: \(container.loginHint)\n".utf8)
                    )
                }
                if !watch { throw ExitCode(3) }
                return .signedOut
            }
            let report = try await inbox.drain(
                using: ShareUploader(credential: credential, transport: AsyncHTTPTransport.shared)
            )
            if report.needsSignIn { try account.markNeedsSignIn(refused: credential.shareToken) }
            var summary = "Sent \(report.delivered.count)"
            if !report.deferred.isEmpty { summary += ", \(report.deferred.count) will be retried" }
            if !report.postponed.isEmpty {
                summary += ", \(report.postponed.count) not sent yet (inbox list says why)"
            }
            if !report.rejected.isEmpty {
                summary += ", \(report.rejected.count) refused by the server (see inbox list)"
            }
            if !report.heldForOtherAccount.isEmpty {
                summary += ", \(report.heldForOtherAccount.count) shared under another account (not sent with this one)"
            }
            if report.stoppedAfterFailures {
                summary += "; stopped after \(ShareInbox.transientFailuresEndingAPass) failures in a row, the rest wait"
            }
            summary += "; \(inbox.count) waiting"
            // Shares backing off are not tried before their time: say when that is.
            if inbox.count > 0, let next = try inbox.nextAttemptDate(), next > Date() {
                summary += ", the next try after \(next.formatted(.iso8601)) (inbox drain --watch tries them then)"
            }
            print(summary + ".")
            if let newest = report.newest { print("newest: \(newest.url?.absoluteString ?? newest.id.uuidString)") }
            fflush(nil)  // a watcher's log is read as it runs, also from a pipe or a file
            if report.needsSignIn {
                FileHandle.standardError.write(
                    Data("The server refused this device's token. Sign in again with: \(container.loginHint)\n".utf8)
                )
                if !watch { throw ExitCode(3) }
                return .signedOut
            }
            if !watch {
                let refused = try inbox.pending().filter { $0.state.rejection != nil }.count
                if refused > 0 {
                    let option = "--container \(ShellWord.quoted(container.path))"
                    FileHandle.standardError.write(
                        Data(
                            ("\(refused) share(s) the server refused wait in the inbox: see why with "
                                + "sharepipe inbox list \(option), and remove one with sharepipe inbox discard ID \(option).\n")
                                .utf8
                        )
                    )
                    throw ExitCode(Self.refusedSharesWait)
                }
            }
            return .drained
        }

        /// The exit status of a pass that leaves shares the server refused in the inbox: they will not
        /// be sent again, so a script running `drain` has something to show its user.
        static let refusedSharesWait: Int32 = 4
    }

    struct Discard: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Remove one waiting share (it is not sent), by the id inbox list shows."
        )
        @Argument(help: "The share's id.")
        var id: String

        @OptionGroup var container: ContainerOption

        func validate() throws {
            guard UUID(uuidString: id) != nil else {
                throw ValidationError("'\(id)' is not a share id; inbox list shows each share's id first.")
            }
        }

        func run() async throws {
            guard let uuid = UUID(uuidString: id) else { throw CLIError("'\(id)' is not a share id.") }
            let inbox = try container.existingInbox()
            guard try inbox.discard(uuid) else {
                throw CLIError("No share \(id) waits in \(container.path); inbox list shows those that do.")
            }
            print("Removed the share \(id).")
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove every waiting share (they are not sent).")
        @OptionGroup var container: ContainerOption

        func run() async throws {
            let inbox = try container.existingInbox()
            let removed = try inbox.clear()
            try inbox.sweep()
            print("Removed \(removed) share(s).")
        }
    }
}

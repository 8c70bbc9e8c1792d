import Foundation
import SharePipeKit

/// Runs ``ShareFlow`` for the command line, which plays a share extension that can neither post
/// notifications nor open an app: it prints what an extension would show.
struct ShareFlowRunner {
    let inbox: ShareInbox
    let account: ShareAccount
    let credential: CredentialState
    let loginHint: String

    /// Decides, uploads when the flow says so, and performs the conclusion. Returns whether the share
    /// was saved.
    func run(_ item: ShareItem, persistence: ShareFlow.Persistence, upload: Bool) async -> Bool {
        var situation = ShareFlow.Situation(
            persistence: persistence,
            credential: credential.kind,
            host: HostAbilities(notificationsAllowed: false, canOpenApp: false)
        )
        var decision = ShareFlow.decide(situation)
        if decision == .uploadNow, case .valid(let stored) = credential {
            guard let claim = try? inbox.claim(item.id, lease: .seconds(60)) else {
                print(ShareFlow.Message.savedWillSend)  // the app took it meanwhile
                return true
            }
            situation.upload = await ShareUploader(credential: stored).upload(claim.item)
            decision = ShareFlow.decide(situation)
        }
        guard case .conclude(let actions) = decision else { return true }
        for action in actions { perform(action, item: item, upload: situation.upload) }
        if case .persisted = persistence { return true }
        return false
    }

    private func perform(_ action: ShareFlowAction, item: ShareItem, upload: UploadOutcome?) {
        do {
            switch action {
            case .removeFromInbox:
                try inbox.complete(item.id)
            case .retryLater:
                var wait: Duration?
                if case .transient(_, let retryAfter) = upload { wait = retryAfter }
                try inbox.release(item.id, retryAfter: wait, error: describe(upload))
            case .keepUntilSignIn:
                try inbox.release(item.id, retryAfter: .zero, error: describe(upload))
            case .keepRejected(let message):
                try inbox.reject(item.id, message: message)
            case .markNeedsSignIn:
                try account.markNeedsSignIn()
            case .show(let message):
                print(message)
                if message == ShareFlow.Message.savedSignIn { print("Sign in with: \(loginHint)") }
            case .postNotification(let message):
                print("notification: \(message)")
            case .openApp(let fallback):
                print(fallback)
            }
        } catch {
            FileHandle.standardError.write(Data("warning: \(error)\n".utf8))
        }
    }

    private func describe(_ upload: UploadOutcome?) -> String? {
        switch upload {
        case .transient(let reason, _): reason
        case .unauthorized(_, let message), .rejected(_, let message): message
        default: nil
        }
    }
}

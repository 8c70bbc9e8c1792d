/// The share extension's decisions, as a pure function: no I/O, exhaustively tested.
///
/// The extension always persists the share to the inbox first. Then, from whether that worked, the
/// credential's state, the upload's outcome (once there is one) and what the host allows, ``decide(_:)``
/// says what to do: upload now, or conclude with actions — remove the item (the server acknowledged
/// it), keep it for a retry or until sign-in, tell the user, post a local notification, or try to open
/// the app with an in-extension prompt as the fallback.
///
/// Why this is what works on iOS 18 and later: a share extension cannot open its containing app.
/// `NSExtensionContext.open(_:)` is honoured only for Today widgets and iMessage extensions, and the
/// old trick of walking the responder chain to `UIApplication.openURL:` stopped working in iOS 18
/// (the selector is gone for extensions). So the flow never depends on opening the app: the share is
/// durable in the App Group before anything is said, the extension uploads it itself with the share
/// token from the shared keychain group, and when it cannot, it says so ("Saved — it will be sent when
/// you open SharePipe") and may post a local notification; the app drains the inbox on launch,
/// activation and the inbox's change signal. Opening the app is only tried where the host says it can
/// (macOS, older iOS), always with the prompt as fallback.
///
/// ```swift
/// var situation = ShareFlow.Situation(persistence: .persisted, credential: .valid, host: host)
/// if case .uploadNow = ShareFlow.decide(situation) {
///     situation.upload = await uploader.upload(item)
/// }
/// if case .conclude(let actions) = ShareFlow.decide(situation) { perform(actions) }
/// ```
public enum ShareFlow {
    /// Everything the decision depends on.
    public struct Situation: Sendable, Hashable {
        /// Whether the share was written to the inbox.
        public var persistence: Persistence
        /// The state of the stored credential.
        public var credential: CredentialState.Kind
        /// The upload's outcome, once there was one.
        public var upload: UploadOutcome?
        /// What the host process allows.
        public var host: HostAbilities

        /// Creates a situation.
        public init(
            persistence: Persistence,
            credential: CredentialState.Kind,
            upload: UploadOutcome? = nil,
            host: HostAbilities
        ) {
            self.persistence = persistence
            self.credential = credential
            self.upload = upload
            self.host = host
        }
    }

    /// Whether the share reached the inbox.
    public enum Persistence: Sendable, Hashable {
        /// It is in the inbox, durably.
        case persisted
        /// It could not be saved; `reason` says why and what to do (a full inbox, no space…).
        case failed(reason: String)
    }

    /// What to do next.
    public enum Decision: Sendable, Hashable {
        /// Claim the persisted item and upload it now, then decide again with the outcome.
        case uploadNow
        /// Finish with these actions, in order.
        case conclude([ShareFlowAction])
    }

    /// Decides the next step; see the table in `docs/sharepipekit.md`.
    public static func decide(_ situation: Situation) -> Decision {
        guard case .persisted = situation.persistence else {
            if case .failed(let reason) = situation.persistence {
                return .conclude([.show(Message.notSaved(reason))])
            }
            return .conclude([])
        }
        guard situation.credential == .valid else {
            return .conclude(signInActions(situation.host, markNeedsSignIn: false))
        }
        guard let upload = situation.upload else { return .uploadNow }
        switch upload {
        case .uploaded, .replayed:
            return .conclude([.removeFromInbox, .show(Message.sent)])
        case .rejected(_, let message):
            return .conclude([.keepRejected(message), .show(Message.rejected(message))])
        case .unauthorized:
            return .conclude([.keepUntilSignIn] + signInActions(situation.host, markNeedsSignIn: true))
        case .transient, .postponed:
            if case .postponed(let reason, _) = upload {
                // It waits for something opening the app does not change: say what, and post no reminder.
                return .conclude([.retryLater, .show(Message.savedWaiting(reason))])
            }
            var actions: [ShareFlowAction] = [.retryLater, .show(Message.savedWillSend)]
            if situation.host.notificationsAllowed { actions.append(.postNotification(Message.waitingNotification)) }
            return .conclude(actions)
        }
    }

    /// The item waits for the user to sign in: open the app where possible (prompt as fallback), else
    /// tell them, with a notification when allowed.
    private static func signInActions(_ host: HostAbilities, markNeedsSignIn: Bool) -> [ShareFlowAction] {
        var actions: [ShareFlowAction] = markNeedsSignIn ? [.markNeedsSignIn] : []
        if host.canOpenApp {
            actions.append(.openApp(fallback: Message.savedSignIn))
        } else {
            actions.append(.show(Message.savedSignIn))
            if host.notificationsAllowed { actions.append(.postNotification(Message.signInNotification)) }
        }
        return actions
    }

    /// The words the flow shows, in one place.
    public enum Message {
        /// The server has the share.
        public static let sent = "Sent."
        /// Saved; the app will send it.
        public static let savedWillSend = "Saved — it will be sent when you open SharePipe."
        /// Saved; the user needs to sign in first.
        public static let savedSignIn = "Saved — sign in to SharePipe to send it."
        /// Saved under the account signed in when it was shared, which another replaced meanwhile.
        public static let savedForOtherAccount =
            "Saved — another account signed in meanwhile; it will be sent when the account you shared it "
            + "from signs in again."
        /// A reminder posted as a local notification.
        public static let waitingNotification = "A share is waiting to be sent. Open SharePipe to send it."
        /// A sign-in reminder posted as a local notification.
        public static let signInNotification = "Sign in to SharePipe to send the share you saved."
        /// Saved; the server takes it later, for a reason opening the app does not change (it starts
        /// a group past the day's allowance, or its files could not be read by this upload).
        public static func savedWaiting(_ reason: String) -> String { "Saved — not sent yet: \(reason)" }
        /// The share could not be saved; never says "saved".
        public static func notSaved(_ reason: String) -> String { "Not saved: \(reason)" }
        /// The server refused the share.
        public static func rejected(_ detail: String) -> String {
            "Saved, but the server refused it: \(detail) Open SharePipe to change or discard it."
        }
    }
}

/// What the host process can do, as the extension finds out at run time.
public struct HostAbilities: Sendable, Hashable, CaseIterable {
    /// Whether the user allows local notifications.
    public var notificationsAllowed: Bool
    /// Whether this host can open the containing app (not an iOS 18+ share extension).
    public var canOpenApp: Bool

    /// Creates abilities.
    public init(notificationsAllowed: Bool, canOpenApp: Bool) {
        self.notificationsAllowed = notificationsAllowed
        self.canOpenApp = canOpenApp
    }

    /// Every combination.
    public static let allCases: [HostAbilities] = [false, true].flatMap { notifications in
        [false, true].map { HostAbilities(notificationsAllowed: notifications, canOpenApp: $0) }
    }
}

/// One step of concluding the flow.
public enum ShareFlowAction: Sendable, Hashable {
    /// The server acknowledged the item: remove it from the inbox.
    case removeFromInbox
    /// A transient failure: give the claim back with backoff; the app sends it later.
    case retryLater
    /// The token was refused: give the claim back without counting against the item.
    case keepUntilSignIn
    /// The server refused the item: keep it with this message for the app to show; no retry.
    case keepRejected(String)
    /// Mark the account as needing sign-in (the stored credential is no longer valid).
    case markNeedsSignIn
    /// Show this message in the extension (or print it, on the command line).
    case show(String)
    /// Post a local notification with this text.
    case postNotification(String)
    /// Try to open the app; if that fails, show `fallback` in the extension.
    case openApp(fallback: String)
}

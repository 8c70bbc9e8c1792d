/// What the process running the share flow can do for the user: an iOS share extension, a macOS
/// one, or the command line. The flow's rules stay in ``ShareFlow``; a host only shows, notifies and
/// (where it can) opens the app.
public protocol ShareFlowHost: Sendable {
    /// What this host allows right now (notifications authorised? can it open the app?).
    func abilities() async -> HostAbilities
    /// Shows a message to the user (an alert in the extension, a line on the command line).
    func show(_ message: String) async
    /// Posts a local notification with `message`.
    func postNotification(_ message: String) async
    /// Tries to open the containing app; whether it opened.
    func openApp() async -> Bool
    /// Called once the share is durably in the inbox, before any upload.
    func persisted(_ item: ShareItem) async
}

extension ShareFlowHost {
    /// Called once the share is durably in the inbox, before any upload; does nothing by default.
    public func persisted(_ item: ShareItem) async {}
}

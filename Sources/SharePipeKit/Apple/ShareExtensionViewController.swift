#if canImport(UIKit) && canImport(UniformTypeIdentifiers) && canImport(UserNotifications) && os(iOS)
public import Foundation
public import UIKit
import UniformTypeIdentifiers
import UserNotifications

// Apple adapter: not compiled on Linux, so not built or tested in CI. All decisions are in the tested
// `ShareFlowRunner` / `ShareFlow`; this only loads the extension's input and talks to UIKit.

/// A headless share extension: subclass it as the extension's principal class, give it the App
/// Group container and keychain access group, and it loads the shared URL, text and images into a
/// ``ShareItem``, runs ``ShareFlowRunner`` and completes the request.
open class ShareExtensionViewController: UIViewController {
    /// The App Group container URL (`FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`).
    open var containerURL: URL? { nil }
    /// The keychain access group shared with the app.
    open var keychainAccessGroup: String? { nil }

    override open func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        Task { await run() }
    }

    private func run() async {
        guard let containerURL, let inbox = try? ShareInbox(folder: containerURL.appendingPathComponent("inbox")) else {
            await ExtensionHost(controller: self).show(
                ShareFlow.Message.notSaved("the app group container is missing.")
            )
            return finish()
        }
        let account = ShareAccount(
            store: KeychainCredentialStore(accessGroup: keychainAccessGroup),
            container: containerURL
        )
        let (item, attachments) = await loadInput()
        await ShareFlowRunner(inbox: inbox, account: account).share(
            item,
            attachments: attachments,
            host: ExtensionHost(controller: self)
        )
        finish()
    }

    private func finish() {
        extensionContext?.completeRequest(returningItems: nil)
    }

    /// The shared URL, text and images from the extension's input items.
    private func loadInput() async -> (ShareItem, [ShareAttachment.Content]) {
        var item = ShareItem()
        var attachments: [ShareAttachment.Content] = []
        let providers = (extensionContext?.inputItems as? [NSExtensionItem] ?? []).flatMap { $0.attachments ?? [] }
        for provider in providers {
            if provider.hasItemConformingToTypeIdentifier(UTType.url.identifier),
                let url = try? await provider.loadItem(forTypeIdentifier: UTType.url.identifier) as? URL, !url.isFileURL
            {
                item.url = item.url ?? url
            } else if provider.hasItemConformingToTypeIdentifier(UTType.plainText.identifier),
                let text = try? await provider.loadItem(forTypeIdentifier: UTType.plainText.identifier) as? String
            {
                item.text = [item.text, text].compactMap { $0 }.joined(separator: "\n")
            } else if provider.hasItemConformingToTypeIdentifier(UTType.image.identifier),
                let url = try? await provider.loadItem(forTypeIdentifier: UTType.image.identifier) as? URL,
                url.isFileURL
            {
                // The inbox copies the file in pieces after checking its size: an extension has too
                // little memory to load a large one whole.
                let type = UTType(filenameExtension: url.pathExtension)?.preferredMIMEType ?? "application/octet-stream"
                attachments.append(ShareAttachment.Content(contentType: type, file: url))
            }
        }
        return (item, attachments)
    }
}

/// The extension as a ``ShareFlowHost``: an alert, a local notification, and no app opening (iOS 18+
/// share extensions cannot open their app).
private struct ExtensionHost: ShareFlowHost {
    weak var controller: UIViewController?

    func abilities() async -> HostAbilities {
        let settings = await UNUserNotificationCenter.current().notificationSettings()
        let allowed = settings.authorizationStatus == .authorized || settings.authorizationStatus == .provisional
        return HostAbilities(notificationsAllowed: allowed, canOpenApp: false)
    }

    func show(_ message: String) async {
        await MainActor.run {
            guard let controller else { return }
            let alert = UIAlertController(title: nil, message: message, preferredStyle: .alert)
            controller.present(alert, animated: true)
        }
        try? await Task.sleep(for: .seconds(1.2))
    }

    func postNotification(_ message: String) async {
        let content = UNMutableNotificationContent()
        content.body = message
        let request = UNNotificationRequest(identifier: UUID().uuidString, content: content, trigger: nil)
        try? await UNUserNotificationCenter.current().add(request)
    }

    func openApp() async -> Bool { false }
}
#endif

public import Foundation
import SharePipeProtocol

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Sends one item somewhere and says what became of it. ``ShareUploader`` is the real one; the drain
/// takes any, so its rules are tested without a network.
public protocol ShareUploading: Sendable {
    /// Uploads `item` and classifies the answer; never throws (a failure is an outcome).
    func upload(_ item: ShareItem) async -> UploadOutcome

    /// Uploads `item` with its attachment files, found in `files`. By default ``upload(_:)``, for
    /// uploaders that send no files.
    func upload(_ item: ShareItem, files: AttachmentFiles) async -> UploadOutcome

    /// The user id items are sent under, when known: the drain never sends an item shared under
    /// another account with it. Default nil (no check).
    var account: UUID? { get }

    /// This uploader, also telling `observer` how much of each file the server has stored after each
    /// of its answers (the inbox keeps it, ``ShareInbox/recordProgress(_:)``). By default itself,
    /// for uploaders that report nothing.
    func reportingProgress(to observer: @escaping @Sendable (UploadProgress) -> Void) -> Self
}

extension ShareUploading {
    public var account: UUID? { nil }

    public func reportingProgress(to observer: @escaping @Sendable (UploadProgress) -> Void) -> Self { self }

    public func upload(_ item: ShareItem, files: AttachmentFiles) async -> UploadOutcome { await upload(item) }
}

/// Posts items to a SharePipe server's `POST /v1/shares` with `Authorization: Bearer <share token>`
/// and `Idempotency-Key: <item id>`, over an ``HTTPTransport`` (by default ``URLSessionTransport``).
///
/// The same item posted twice — a retry, or a second process after a crash — is recorded once: the
/// server answers the second with its stored response (``UploadOutcome/replayed(shareID:)``).
///
/// ```swift
/// let uploader = ShareUploader(credential: credential)
/// switch await uploader.upload(item) {
/// case .uploaded, .replayed: try inbox.complete(item.id)
/// default: …
/// }
/// ```
public struct ShareUploader: ShareUploading {
    /// The server's base URL.
    public let server: URL
    /// The share token.
    public let token: String
    /// The user id the token belongs to, when known (from a ``ShareCredential``).
    public let account: UUID?
    /// How long the server may stay silent during a request before it counts as a transient failure.
    /// Default 20 seconds.
    public let timeout: Duration
    /// The longest one request may take in all, however the answer trickles: by default
    /// ``defaultLongestExchange``.
    public let longestExchange: Duration
    /// The longest one upload or sign-in takes by default: 60 s, within the drain's 2-minute lease.
    public static let defaultLongestExchange: Duration = .seconds(60)
    private let transport: any HTTPTransport
    /// Told, after each answer of the server's, how much of each file of a share it has stored
    /// (a terminal's progress bar, an app's progress view); `nil` by default.
    public var progress: (@Sendable (UploadProgress) -> Void)?

    /// An uploader for `server` with `token`.
    /// - Parameters:
    ///   - server: The server's base URL.
    ///   - token: The device's share token.
    ///   - timeout: The limit for one request; default 20 seconds.
    ///   - session: The session to use when no `transport` is given; default one ephemeral session (no
    ///     cache, no cookies, no redirects followed) shared by every uploader, so an app that makes an
    ///     uploader per drain does not pile up sessions. A session of your own should not follow
    ///     redirects either.
    ///   - account: The user id the token belongs to, if known: items shared under another are not sent.
    ///   - longestExchange: The limit for one request in all; default 60 seconds.
    ///   - transport: How the request is sent; default ``URLSessionTransport`` over `session`.
    public init(
        server: URL,
        token: String,
        timeout: Duration = .seconds(20),
        session: URLSession? = nil,
        account: UUID? = nil,
        longestExchange: Duration = ShareUploader.defaultLongestExchange,
        transport: (any HTTPTransport)? = nil
    ) {
        self.server = server
        self.token = token
        self.account = account
        self.timeout = timeout
        self.longestExchange = longestExchange
        self.transport = transport ?? URLSessionTransport(session: session)
    }

    /// An uploader with a stored credential's server and share token, sending through `transport`
    /// (default ``URLSessionTransport``).
    public init(credential: ShareCredential, timeout: Duration = .seconds(20), transport: (any HTTPTransport)? = nil) {
        self.init(
            server: credential.server,
            token: credential.shareToken,
            timeout: timeout,
            account: credential.userID,
            transport: transport
        )
    }

    /// This uploader, telling `observer` after ``progress`` (when set) each report.
    public func reportingProgress(to observer: @escaping @Sendable (UploadProgress) -> Void) -> ShareUploader {
        var reporting = self
        let earlier = progress
        reporting.progress = { report in
            earlier?(report)
            observer(report)
        }
        return reporting
    }

    /// Uploads an item without its files: one that has attachments waits (``attachmentsWaitReason``),
    /// since sending the rest would report it sent and lose them. ``upload(_:files:)`` sends them.
    public func upload(_ item: ShareItem) async -> UploadOutcome {
        guard item.attachments.isEmpty else {
            return .postponed(reason: Self.attachmentsWaitReason(count: item.attachments.count), retryAfter: nil)
        }
        return await post(item, attachments: [])
    }

    /// Uploads `item`'s attachment files first (``AttachmentUpload``: resumable, by SHA-256), then
    /// the share naming them. A file the server refuses (too large, over the quota) is the item's
    /// outcome, with the server's words; the item is never reported sent without its files.
    public func upload(_ item: ShareItem, files: AttachmentFiles) async -> UploadOutcome {
        guard !item.attachments.isEmpty else { return await post(item, attachments: []) }
        var sender = AttachmentUpload(
            server: server,
            token: token,
            timeout: timeout,
            longestExchange: longestExchange,
            transport: transport
        )
        sender.progress = progress
        sender.itemID = item.id
        switch await sender.send(item.attachments.map { ($0, files.url(of: $0, in: item)) }) {
        case .success(let references): return await post(item, attachments: references)
        case .failure(let stop): return stop.outcome
        }
    }

    /// `POST /v1/shares` for `item`, naming `attachments` (uploaded already).
    private func post(_ item: ShareItem, attachments: [ShareSubmission.Attachment]) async -> UploadOutcome {
        var request = URLRequest(url: server.appendingPathComponent("v1/shares"))
        request.httpMethod = "POST"
        request.timeoutInterval = timeout.timeInterval
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue(item.id.uuidString, forHTTPHeaderField: "Idempotency-Key")
        do {
            request.httpBody = try item.submissionBody(attachments: attachments)
            let (body, http) = try await transport.send(request, within: longestExchange)
            return UploadOutcome.classify(
                status: http.statusCode,
                header: { http.value(forHTTPHeaderField: $0) },
                body: body
            )
        } catch {
            return .transient(
                reason: "Could not reach \(server.host ?? server.absoluteString): "
                    + NetworkFailure.describe(error, timeout: timeout) + ".",
                retryAfter: nil
            )
        }
    }

    /// Why a share with attachments is not sent by an upload that cannot read its files: it stays in
    /// the inbox with them (never sent without them, which would lose them).
    public static func attachmentsWaitReason(count: Int) -> String {
        "It has \(count) attachment\(count == 1 ? "" : "s") and was sent without access to "
            + "\(count == 1 ? "its file" : "its files"): it stays in the inbox until the app sends it."
    }
}

public import Foundation
public import LinkPreviewCore
public import SharePipeProtocol
public import NIOCore

/// What the server keeps, in the domain's terms: accounts, devices and tokens, shares and links,
/// preview jobs, conversations, the shelf, web sessions and public pages. The routes, the preview
/// worker and housekeeping depend on this protocol, not on SQL.
///
/// ``Database`` is its one implementation: the same sql-kit statements on an embedded SQLite file
/// and on PostgreSQL, and the storage tests run against both. A failure is a ``StorageError``:
/// `unavailable` when the database cannot be reached, `conflict` and `invalid` for what the caller
/// asked.
public protocol Storage: Sendable {
    // MARK: Accounts, devices and tokens
    /// Creates an account. Throws ``StorageError/Code/conflict`` when the handle is taken.
    func createUser(handle: String, displayName: String, passwordHash: String?) async throws -> User
    func user(handle: String) async throws -> User?
    /// The stored password hash of a handle, if it has one.
    func passwordHash(handle: String) async throws -> String?
    /// Registers a device and issues its two tokens, returned once and stored only as hashes.
    func createDevice(
        userID: UUID,
        name: String,
        expiresAt: Date?
    ) async throws -> (device: Device, appToken: String, shareToken: String)
    /// The principal a token stands for, or why it stands for none. The checks of concurrent
    /// requests go to the database together (``StorageBatches``).
    func authenticate(token: String) async throws -> TokenCheck
    func devices(userID: UUID) async throws -> [Device]
    /// Revokes one of the user's devices; false when it is not theirs or does not exist.
    func revokeDevice(id: UUID, userID: UUID) async throws -> Bool
    /// Signs one of the user's devices in again (new tokens, the old ones revoked); nil when it is
    /// not theirs or was revoked.
    func signInAgain(deviceID: UUID, userID: UUID, name: String) async throws -> (device: Device, appToken: String, shareToken: String)?
    /// Records when and from where a device's tokens were used.
    func recordDeviceUse(deviceID: UUID, at date: Date, from address: String?) async throws
    /// Renames one of the user's devices; false when it is not theirs.
    func renameDevice(id: UUID, userID: UUID, name: String) async throws -> Bool

    // MARK: Conversations
    /// Starts a conversation of `creatorID` with the users of `handles`: with one other person and no
    /// title, their direct conversation (the existing one if there is one); otherwise a new group.
    /// Throws ``StorageError/Code/invalid`` naming unknown handles. `isNew` is false when the direct
    /// conversation already existed.
    func createConversation(
        creatorID: UUID,
        handles: [String],
        title: String?
    ) async throws -> (conversation: Conversation, isNew: Bool)
    /// The conversations `userID` is in, most recently created first: at most `limit` of them,
    /// after `cursor` (the last one of the page before).
    func conversations(userID: UUID, before cursor: ShareCursor?, limit: Int) async throws -> [Conversation]
    /// A conversation `viewerID` is in; nil when there is none or the viewer is not in it.
    func conversation(id: UUID, viewerID: UUID) async throws -> Conversation?
    /// Adds the user of `handle` to a group `byUserID` is in. False when the viewer is not in it.
    func addMember(conversationID: UUID, byUserID: UUID, handle: String) async throws -> Bool
    /// Removes the user of `handle` (the viewer themselves: leaving) from a group `byUserID` is in;
    /// what the conversation put on their shelf goes, unless pinned. False when the viewer is not in it.
    func removeMember(conversationID: UUID, byUserID: UUID, handle: String) async throws -> Bool
    /// Turns the viewer's "Show in Shared with You" switch for a conversation on or off. Items from
    /// it leave or return to the shelf at once (pinned ones stay). False when the viewer is not in it.
    func setShowInSharedWithYou(_ show: Bool, conversationID: UUID, userID: UUID) async throws -> Bool
    /// A conversation's messages, newest first, before a cursor; nil when the viewer is not in it.
    func messages(
        conversationID: UUID,
        viewerID: UUID,
        before cursor: ShareCursor?,
        limit: Int
    ) async throws -> [Message]?

    /// The messages about a shelf item in the conversations it came to the viewer from (shares with
    /// their notes, replies), newest first, at most `limit`; empty when it is not on their shelf.
    func linkThread(linkID: UUID, viewerID: UUID, limit: Int) async throws -> [Message]

    // MARK: Preview jobs
    /// Tells everyone whose shelf shows the link that its item changed (an `updated` shelf event).
    func announceLinkChanged(linkID: UUID) async throws
    /// Records that the user looked at their shelf now.
    func markShelfSeen(userID: UUID) async throws
    /// Items shared to the user since they last looked at their shelf, at most 100.
    func shelfNewCount(userID: UUID) async throws -> Int
    /// Records that the user read the conversation now.
    func markConversationRead(conversationID: UUID, userID: UUID) async throws
    /// For each of the user's conversations given, how many messages others sent since they last
    /// read it, at most ``Database/maxUnreadCount``; conversations with none are left out.
    func unreadCounts(conversationIDs: [UUID], userID: UUID) async throws -> [UUID: Int]
    /// Queues a new fetch of a failed preview for a user who has the link on their shelf (its
    /// "Try again"); false when it is not theirs, did not fail, or was fetched moments ago.
    func retryPreview(linkID: UUID, userID: UUID) async throws -> Bool
    /// Preview jobs queued and running (for `/metrics`).
    func jobCounts() async throws -> (queued: Int, running: Int)
    /// Takes the next due job for `lease`: a queued job whose time has come, or a running one whose
    /// lease ran out (its worker died). Nil when there is none.
    func claimPreviewJob(lease: Duration) async throws -> PreviewJob?
    /// Stores a job's preview and ends the job.
    func completePreviewJob(_ job: PreviewJob, metadata: LinkMetadata, expires: Date?) async throws
    /// Records a failed attempt: the job runs again at `retryAt`, or, with nil, the job ends and a
    /// link without a preview is marked failed with `reason` (one with a preview keeps it).
    func failPreviewJob(_ job: PreviewJob, reason: String, retryAt: Date?) async throws
    /// Puts a job back without counting its attempt: it was not tried (its host's circuit is open).
    func postponePreviewJob(_ job: PreviewJob, until: Date) async throws
    /// Jobs waiting or running (for `/ready`).
    func pendingJobCount() async throws -> Int

    // MARK: Housekeeping
    @discardableResult
    func enqueueRefreshes(limit: Int) async throws -> Int
    /// Recomputes shelf items and search documents a change of membership or switch queued and did
    /// not finish (a crash, a failure), in bounded transactions, at most `limit` links; how many.
    @discardableResult
    func drainShelfRefreshQueue(limit: Int) async throws -> Int
    /// Forgets the stored responses of idempotency keys first used before `date`, keeping the keys and
    /// the shares they name (a later retry is still a replay); returns how many keys changed.
    @discardableResult
    func forgetIdempotencyResponses(createdBefore date: Date) async throws -> Int
    @discardableResult
    func deleteExpiredSessions() async throws -> Int
    @discardableResult
    func prunePreviewCache(storedBefore date: Date) async throws -> Int

    // MARK: Public share pages
    /// Gives one of the user's shares a public page and returns its id (the existing one if it has
    /// one): 256 random bits, unguessable. Nil when the share is not the user's.
    func publishShare(id: UUID, userID: UUID) async throws -> String?
    /// Takes a share's public page down: its URL answers 404 from the next request on. False when
    /// the share is not the user's.
    func unpublishShare(id: UUID, userID: UUID) async throws -> Bool
    /// The share, link and sharer behind a public page id; nil when there is none (or it was taken down).
    func publicPage(id: String) async throws -> PublicPage?

    // MARK: Web sessions
    /// Starts a web session for `userID` and returns its cookie value, shown once; only its SHA-256
    /// is stored (as for device tokens).
    func createSession(userID: UUID, lifetime: Duration) async throws -> String
    /// The user a session cookie stands for, or nil when it is unknown or expired.
    func sessionUser(token: String) async throws -> User?
    /// Ends a session (signing out); unknown tokens are ignored.
    func deleteSession(token: String) async throws
    @discardableResult
    func deleteSessions(userID: UUID) async throws -> Int
    /// Sets a new password hash and ends the account's other web sessions; how many ended.
    func setPassword(hash: String, userID: UUID, keeping session: String?) async throws -> Int
    /// Changes the name others see.
    func setDisplayName(_ name: String, userID: UUID) async throws
    func deleteAccount(userID: UUID) async throws -> AccountDeletion?

    // MARK: Share ingestion
    /// Takes the idempotency key and records the share, exactly once per key and user: the key is
    /// written done, with the share and `response`'s answer, in one transaction. A request whose key
    /// another request holds right now is ``ShareIngestOutcome/inFlight``.
    func ingestShare(
        _ incoming: IncomingShare,
        response: @escaping @Sendable (RecordedShare) throws -> (status: Int, body: String)
    ) async throws -> ShareIngestOutcome

    // MARK: Shares and links
    /// A user's shares, newest first, after a cursor (the last share of the previous page).
    func shares(
        userID: UUID,
        deviceID: UUID?,
        before cursor: ShareCursor?,
        limit: Int
    ) async throws -> [Share]
    /// The user's shares that went to nobody (no recipients, or only themself), newest first.
    func savedShares(userID: UUID, limit: Int) async throws -> [Share]
    /// One share of the user's (nil for anyone else's: their existence is not disclosed).
    func share(id: UUID, userID: UUID) async throws -> Share?
    /// A link, if the user shared it or it was shared with them (links are not browsable by id
    /// otherwise), with the user's own `createdAt`: when it first reached them.
    func link(id: UUID, sharedBy userID: UUID) async throws -> Link?

    // MARK: The Shared with You shelf
    /// The candidates of a page of `userID`'s shelf, after a cursor, for ``Shelf`` to rank.
    func shelfCandidates(userID: UUID, after cursor: ShelfCursor?, limit: Int) async throws -> ShelfCandidates
    /// One link's candidate on `userID`'s shelf; nil when it is not there.
    func shelfCandidate(userID: UUID, linkID: UUID) async throws -> ShelfCandidate?
    /// The links of `ids`, with their previews (for the items a shelf page shows).
    func links(ids: [UUID]) async throws -> [UUID: Link]
    /// The files of `shares` that have any, in order, by share (for the sets of files a shelf page shows).
    func attachments(ofShares shares: [UUID]) async throws -> [UUID: [Share.Attachment]]
    /// Pins or unpins a link on the user's shelf. False when it is not on their shelf (or removed).
    func setPinned(_ pinned: Bool, linkID: UUID, userID: UUID) async throws -> Bool
    /// Removes a link from the user's shelf: it does not return when shared again, until restored.
    /// False when it is not on their shelf.
    func removeHighlight(linkID: UUID, userID: UUID, reason: String?) async throws -> Bool
    /// Puts a removed item back where its latest share places it; false when it was not removed.
    func restoreHighlight(linkID: UUID, userID: UUID) async throws -> Bool
    /// The user's removed items, latest removal first.
    func removedHighlights(userID: UUID, limit: Int) async throws -> [ShelfRemoval]
    /// The documents of the query's owner that match it, best first, after `cursor` (``SearchDocument``).
    func search(_ query: SearchQuery, after cursor: SearchCursor?, limit: Int) async throws -> [SearchHit]
    /// Records the user seeing or opening a shelf item; opens also count for its sharers (the
    /// "opens links from this sharer" signal). False when it is not on their shelf.
    func recordFeedback(_ feedback: HighlightFeedback, linkID: UUID, userID: UUID) async throws -> Bool
    /// Records one summary impression for each of `linkIDs` on the user's shelf (a page of cards
    /// shown), in one statement.
    func recordSummaryImpressions(linkIDs: [UUID], userID: UUID) async throws
    /// Replies to a shelf item: posts the link with `note` into the conversation it came from (the
    /// chosen one when it came from several); once per `idempotency` key, when one is given.
    func reply(
        linkID: UUID,
        userID: UUID,
        conversationID: UUID?,
        note: String?,
        idempotency: IdempotentRequest?
    ) async throws -> ReplyOutcome

    // MARK: Uploads
    /// The user's upload of `key.sha256`, with the bytes stored so far; nil when there is none.
    func upload(_ key: UploadKey) async throws -> UploadRecord?
    /// Starts the user's upload of the bytes `request` names, or finds the one they started; a new
    /// one counts its whole size against `quota`.
    func createUpload(_ request: UploadRequest, userID: UUID, quota: Int64) async throws -> UploadCreation
    /// Stores `bytes` from `offset`, which must be the offset stored; durable when it returns.
    func appendToUpload(_ key: UploadKey, at offset: Int64, bytes: ByteBuffer) async throws -> UploadAppendOutcome
    /// Calls `body` with an upload's stored bytes in order, a piece at a time.
    func readUpload(_ key: UploadKey, _ body: (ByteBuffer) async throws -> Void) async throws
    /// The first `count` stored bytes of an upload (fewer when it has fewer).
    func readUploadPrefix(_ key: UploadKey, count: Int) async throws -> [UInt8]
    /// Completes a whole, checked upload as the blob of its SHA-256, described by `blob`. Nil when
    /// the upload is gone.
    func completeUpload(_ key: UploadKey, as blob: BlobDescription) async throws -> UploadRecord?
    /// Removes the user's upload and its bytes (a blob stays while other uploads name it).
    @discardableResult
    func removeUpload(_ key: UploadKey) async throws -> Bool
    /// Calls `body` with the bytes of blob `sha256` in `range` (all when nil), a piece at a time.
    func readBlob(_ sha256: String, range: Range<Int64>?, _ body: (ByteBuffer) async throws -> Void) async throws
    /// Housekeeping: removes uploads untouched since `cutoff` that no share references, blobs no
    /// upload names, and, with `lookingForStrayBytes`, bytes no row names (a listing of every file).
    func sweepUploads(untouchedSince cutoff: Date, lookingForStrayBytes: Bool) async throws -> (uploads: Int, blobs: Int)

    /// Attachment `index` of share `shareID` and its sharer, when `viewerID` may see it (the sharer,
    /// or a member of a conversation it went to).
    func sharedAttachment(shareID: UUID, index: Int, viewerID: UUID) async throws -> (attachment: Share.Attachment, sharerID: UUID)?

    // MARK: Shelf events
    /// Live changes of the users' shelves: a stream subscribes to its user's and reads
    /// ``shelfEvents(userID:after:limit:)`` when woken. Every change made through this storage
    /// notifies it, and on PostgreSQL so does every change another server process makes.
    var shelfChanges: ShelfChangeHub { get }
    /// `userID`'s shelf events after `sequence`, oldest first, at most `limit`.
    func shelfEvents(userID: UUID, after sequence: Int64, limit: Int) async throws -> [ShelfEvent]
    /// The latest and the oldest kept sequence numbers of `userID`'s shelf events (0 when none).
    func shelfEventBounds(userID: UUID) async throws -> (oldest: Int64, latest: Int64)
    @discardableResult
    func pruneShelfEvents(before date: Date) async throws -> Int
}

extension Storage {
    /// Registers a device whose tokens never expire.
    public func createDevice(
        userID: UUID,
        name: String
    ) async throws -> (device: Device, appToken: String, shareToken: String) {
        try await createDevice(userID: userID, name: name, expiresAt: nil)
    }

    /// A user's shares from every device, newest first, after a cursor.
    public func shares(userID: UUID, before cursor: ShareCursor?, limit: Int) async throws -> [Share] {
        try await shares(userID: userID, deviceID: nil, before: cursor, limit: limit)
    }
}

extension Database: Storage {}

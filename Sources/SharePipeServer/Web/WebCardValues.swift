import Foundation
import SharePipeProtocol

/// What `card.mustache` and `link.mustache` show of a shelf item.
struct WebCardValues {
    struct Sharer {
        var name: String
        var initials: String
    }

    /// A preview not ready, as the card shows it: loading (a placeholder tile), failed (the
    /// reason and "Try again"), or behind a sign-in wall (what the sharers provided).
    struct State {
        var loading = false
        var failed = false
        var wall = false
        /// What the card says about it; nil when the preview is ready.
        var message: String?

        init(_ item: Highlight, host: String) {
            self.init(status: item.status, failure: item.failure, host: host)
        }

        /// The state of a link of `status`, failed with `failure`, on `host`.
        init(status: Link.Status, failure: String?, host: String) {
            switch status {
            case .ready:
                break
            case .pending:
                loading = true
                message = "Loading the preview…"
            case .failed:
                failed = true
                message = "No preview: " + (failure ?? "\(host) could not be read.")
            case .wall:
                wall = true
                message = "\(host) shows servers a sign-in page; open it to see it signed in."
            }
        }
    }

    /// How a card names its link: the host (for a set of files, "Photos" or "Files"), the title,
    /// where it goes and the site. With no title, the link's host and path name it, shown once (not
    /// again as its URL).
    struct Naming {
        var host: String
        var title: String
        var displayURL: String?
        var siteLabel: String

        init(url: URL?, card: Highlight.Card, files: [WebFileValues]) {
            host = url?.displayHost ?? (files.allSatisfy { $0.isPhoto || $0.isVideo } ? "Photos" : "Files")
            let shown = url.map(WebCardValues.displayURL)
            title = card.title ?? shown ?? host
            displayURL = shown == title ? nil : shown
            siteLabel = card.siteName ?? host
        }
    }

    /// The newest thing a sharer wrote with the link.
    struct Note {
        var text: String
        var by: String
    }

    var linkID: String
    var cardTitle: String
    var summary: String?
    var siteLabel: String
    var siteInitial: String
    /// The relay paths of the card's image and the site's icon.
    var imageSrc: String?
    var iconSrc: String?
    /// What the tile shows: the image, else the icon (else the site's initial).
    var tileSrc: String?
    var host: String
    /// The link as a reader sees where it goes: host and path, without the scheme, query or fragment,
    /// at most ``maxDisplayURLLength`` characters; nil for a set of files.
    var displayURL: String?
    /// For a set of files (no link), the files; a link's card has none.
    var files: [WebFileValues]
    var isFileSet: Bool
    /// The photos among ``files``, shown as a gallery; the videos, in players; the rest are downloads.
    var photos: [WebFileValues]
    var videos: [WebFileValues]
    var downloads: [WebFileValues]
    var hasPhotos: Bool
    var hasDownloads: Bool
    var attribution: String
    var sharers: [Sharer]
    /// The newest note of its sharers; the link's page shows them all.
    var note: Note?
    var pinned: Bool
    var suggested: Bool
    /// Where the preview stands, as the card says it.
    var state: State
    /// Whether the tile is a placeholder: loading, with no picture of the sharer's to show.
    var placeholderTile: Bool
    var csrf: String

    init(_ item: Highlight, csrf: String, now: Date, relay: ImageRelay) {
        files = WebFileValues.files(of: item.attachments, shareID: item.shareID)
        isFileSet = item.url == nil
        photos = files.filter(\.isPhoto)
        videos = files.filter(\.isVideo)
        downloads = files.filter { !$0.isPhoto && !$0.isVideo }
        hasPhotos = !photos.isEmpty
        hasDownloads = !downloads.isEmpty
        let naming = Naming(url: item.url, card: item.card, files: files)
        let host = naming.host
        linkID = item.linkID.uuidString
        cardTitle = naming.title
        displayURL = naming.displayURL
        summary = item.card.summary
        state = State(item, host: host)
        siteLabel = naming.siteLabel
        siteInitial = String((item.card.siteName ?? host).first { $0.isLetter || $0.isNumber } ?? "•").uppercased()
        self.host = host
        imageSrc = item.card.imageURL.map(relay.path(for:))
        iconSrc = item.card.iconURL.map(relay.path(for:))
        tileSrc = photos.first?.src ?? imageSrc ?? iconSrc
        placeholderTile = state.loading && tileSrc == nil
        var seen = Set<UUID>()
        let people = item.attributions.map(\.sharer).filter { seen.insert($0.id).inserted }
        sharers = people.map { Sharer(name: Self.label(for: $0), initials: Self.initials($0.displayName)) }
        let conversationCount = Set(item.attributions.map(\.conversationID)).count
        note = item.attributions.first { $0.note != nil }.map { Note(text: $0.note ?? "", by: Self.label(for: $0.sharer)) }
        let titled = item.attributions.compactMap(\.conversationTitle)
        var place = ""
        if let first = titled.first {
            let others = conversationCount - 1
            place = " in \(first)" + (others > 0 ? " and \(others) other conversation\(others == 1 ? "" : "s")" : "")
        }
        attribution =
            "Shared by \(Self.list(people.map(Self.label(for:))))\(place) · \(Self.ago(item.lastSharedAt, now: now))"
        pinned = item.pinnedAt != nil
        suggested = item.suggested
        self.csrf = csrf
    }

    /// How a sharer is named on a card: the display name with the handle, which is unique and cannot
    /// be chosen to look like someone else's (`Ada Lovelace (@ada)`; `@ada` alone when the display
    /// name is the handle). A display name alone could be set to anyone's.
    static func label(for user: User) -> String {
        guard !user.isDeleted else { return User.deletedDisplayName }
        return user.displayName.caseInsensitiveCompare(user.handle) == .orderedSame
            ? "@\(user.handle)" : "\(user.displayName) (@\(user.handle))"
    }

    static let maxDisplayURLLength = 64

    /// `example.com/articles/bread`: the host and path of `url`, cut with `…` past
    /// ``maxDisplayURLLength`` characters.
    static func displayURL(_ url: URL) -> String {
        let path = url.path(percentEncoded: false)
        let text = url.displayHost + (path == "/" ? "" : path)
        return text.count > maxDisplayURLLength ? String(text.prefix(maxDisplayURLLength - 1)) + "…" : text
    }

    static func initials(_ name: String) -> String {
        let words = name.split(separator: " ").prefix(2)
        return words.compactMap { $0.first.map(String.init) }.joined().uppercased()
    }

    static func list(_ names: [String]) -> String {
        switch names.count {
        case 0: "someone"
        case 1: names[0]
        default: names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
        }
    }

    /// "just now", "5 min ago", "3 h ago", "2 d ago".
    static func ago(_ date: Date, now: Date) -> String {
        let seconds = max(0, Int(now.timeIntervalSince(date)))
        switch seconds {
        case ..<60: return "just now"
        case ..<3600: return "\(seconds / 60) min ago"
        case ..<86_400: return "\(seconds / 3600) h ago"
        default: return "\(seconds / 86_400) d ago"
        }
    }
}

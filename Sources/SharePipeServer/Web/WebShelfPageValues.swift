/// The values of the signed-in pages' templates.
struct WebShelfPage: WebPage {
    static let template = WebTemplate.home

    var title = "Shared with You"
    var csrf: String
    var user: WebPageValues.Viewer
    var suggestedItems: [WebCardValues]
    var pinnedItems: [WebCardValues]
    var recentItems: [WebCardValues]
    // Stored, not computed: the templates read values by reflection, which sees stored properties only.
    var hasSuggested: Bool
    var hasPinned: Bool
    var hasRecent: Bool
    var hasItems: Bool
    var nextCursor: String?
    /// The item just removed, with its "Undo".
    var removed: Removed?

    struct Removed {
        var linkID: String
        var title: String
    }

    /// The shelf's page of `cards`, in its three parts: the suggestion, the pins, the newest.
    init(csrf: String, user: WebPageValues.Viewer, cards: [WebCardValues], nextCursor: String?) {
        self.csrf = csrf
        self.user = user
        suggestedItems = cards.filter(\.suggested)
        pinnedItems = cards.filter { $0.pinned && !$0.suggested }
        recentItems = cards.filter { !$0.pinned && !$0.suggested }
        hasSuggested = !suggestedItems.isEmpty
        hasPinned = !pinnedItems.isEmpty
        hasRecent = !recentItems.isEmpty
        hasItems = !cards.isEmpty
        self.nextCursor = nextCursor
    }
}

struct WebRemovedPage: WebPage {
    static let template = WebTemplate.removed

    struct Item {
        var linkID: String
        var title: String
        var url: String?
        var when: String
    }

    var title = "Removed"
    var csrf: String
    var user: WebPageValues.Viewer
    var items: [Item]
    var hasItems: Bool
}

struct WebMinePage: WebPage {
    static let template = WebTemplate.mine

    struct Item {
        /// The link; `nil` for files alone.
        var url: String?
        var label: String
        /// The share's files, each opened or downloaded at its `src`.
        var files: [WebFileValues]
        var hasFiles: Bool
        var note: String?
        var when: String
    }

    var title: String
    var csrf: String
    var user: WebPageValues.Viewer
    var shares: [Item]
    var hasShares: Bool
    var form: WebShareFormValues
}

/// `/share`: the share form on a page of its own, reachable from every page; filled in when another
/// app shared through the Web Share Target (`fromApp`).
struct WebSharePage: WebPage {
    static let template = WebTemplate.share
    var title = "Share"
    var csrf: String
    var user: WebPageValues.Viewer
    var form: WebShareFormValues
    var fromApp = false
}

struct WebConversationsPage: WebPage {
    static let template = WebTemplate.conversations

    struct Item {
        var id: String
        var name: String
        /// The latest message, in a line.
        var latest: String?
        /// How many messages others sent since the viewer last read it ("3", "99+"); nil for none.
        var unread: String?
        var show: Bool
        var csrf: String
        /// The cursor of the page the item is on, so its switch returns there.
        var cursor: String?
    }

    var title: String
    var csrf: String
    var user: WebPageValues.Viewer
    var conversations: [Item]
    var hasConversations: Bool
    var nextCursor: String?
}

struct WebDevicesPage: WebPage {
    static let template = WebTemplate.devices

    struct Item {
        var id: String
        var name: String
        var when: String
        /// "last used 5 min ago from 203.0.113.7", "never used".
        var used: String
        var revoked: Bool
        var csrf: String
    }

    struct Created {
        var name: String
        var appToken: String
        var shareToken: String
    }

    var title: String
    var csrf: String
    var user: WebPageValues.Viewer
    var devices: [Item]
    var created: Created?
    /// Where `sharepipe login` finds this server, for the empty state.
    var server: String
    var hasDevices: Bool { !devices.isEmpty }
}

struct WebSettingsPage: WebPage {
    static let template = WebTemplate.settings
    var title = "Settings"
    var csrf: String
    var user: WebPageValues.Viewer
    var displayName: String
    var saved: String?
}

struct WebPasswordForm: Decodable, WebCSRFCarrying {
    var csrf: String?
    var current: String
    var new: String
    var again: String
}

struct WebDeleteAccountForm: Decodable, WebCSRFCarrying {
    var csrf: String?
    var password: String
}

struct WebProfileForm: Decodable, WebCSRFCarrying {
    var csrf: String?
    var displayName: String
}

/// A form that carries the CSRF field.
protocol WebCSRFCarrying {
    var csrf: String? { get }
}

struct WebCSRFForm: Decodable, WebCSRFCarrying {
    var csrf: String?
}

/// A form that names the page to return to (`back`: a name the controller knows, never a URL).
struct WebReturnForm: Decodable, WebCSRFCarrying {
    var csrf: String?
    var back: String?
}

struct WebReplyForm: Decodable, WebCSRFCarrying {
    var csrf: String?
    var conversationId: String?
    var note: String?
}

struct WebSwitchForm: Decodable, WebCSRFCarrying {
    var csrf: String?
    var show: String
    /// The conversations page to return to.
    var cursor: String?
    /// `conversation`: back to the conversation's own page.
    var back: String?
}

struct WebDeviceForm: Decodable, WebCSRFCarrying {
    var csrf: String?
    var name: String
}

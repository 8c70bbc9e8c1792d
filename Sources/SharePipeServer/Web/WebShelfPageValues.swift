/// The values of the signed-in pages' templates.
struct WebShelfPage {
    var title: String
    var csrf: String
    var user: WebPageValues.Viewer
    var suggestedItems: [WebCardValues]
    var pinnedItems: [WebCardValues]
    var recentItems: [WebCardValues]
    var hasSuggested: Bool
    var hasPinned: Bool
    var hasRecent: Bool
    var hasItems: Bool
    var nextCursor: String?
}

struct WebLinkPage {
    var title: String
    var csrf: String
    var user: WebPageValues.Viewer
    var item: WebCardValues
}

struct WebMinePage {
    struct Item {
        var url: String
        var label: String
        var note: String?
        var when: String
    }

    var title: String
    var csrf: String
    var user: WebPageValues.Viewer
    var shares: [Item]
    var hasShares: Bool
}

struct WebConversationsPage {
    struct Item {
        var id: String
        var name: String
        var members: String
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

struct WebDevicesPage {
    struct Item {
        var id: String
        var name: String
        var when: String
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
}

struct WebSettingsPage {
    var title = "Settings"
    var csrf: String
    var user: WebPageValues.Viewer
    var displayName: String
    var saved: String?
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
}

struct WebDeviceForm: Decodable, WebCSRFCarrying {
    var csrf: String?
    var name: String
}

import SharePipeProtocol

/// What the templates are rendered with (read by name through reflection; see `Templates/`).
enum WebPageValues {
    /// The signed-in user in the page header, with where they are (the navigation marks it) and
    /// how many items are new on their shelf.
    struct Viewer {
        /// The navigation's places.
        enum Section {
            case shelf, share, mine, search, conversations, devices, settings, other
        }

        var handle: String
        var displayName: String
        var atShelf = false
        var atShare = false
        var atMine = false
        var atSearch = false
        var atConversations = false
        var atDevices = false
        var atSettings = false
        /// Items shared since the user last looked at their shelf: "3", "99+"; nil when none.
        var newCount: String?
        /// The user's latest shelf event when the page was made: the page's script follows the
        /// changes after it, so none made while it connects is missed.
        var eventsAfter: String

        init(_ user: User, at section: Section = .other, newItems: Int = 0, eventsAfter: Int64 = 0) {
            handle = user.handle
            displayName = user.displayName
            atShelf = section == .shelf
            atShare = section == .share
            atMine = section == .mine
            atSearch = section == .search
            atConversations = section == .conversations
            atDevices = section == .devices
            atSettings = section == .settings
            newCount = newItems <= 0 ? nil : newItems >= Database.maxNewCount ? "99+" : "\(newItems)"
            self.eventsAfter = "\(eventsAfter)"
        }
    }

    struct SignIn: WebPage {
        static let template = WebTemplate.signin
        var title = "Sign in"
        var csrf: String
        var handle = ""
        var error: String?
        /// What happened before (an account deleted).
        var notice: String?
        var signUpOpen: Bool
    }

    struct SignUp: WebPage {
        static let template = WebTemplate.signup
        var title = "Create an account"
        var csrf: String
        var handle = ""
        var displayName = ""
        var error: String?
    }

    struct Message: WebPage {
        static let template = WebTemplate.message
        var title: String
        var heading: String
        var message: String
    }
}

/// The sign-in form's fields.
struct SignInForm: Decodable {
    var csrf: String?
    var handle: String
    var password: String
}

/// The sign-up form's fields.
struct SignUpForm: Decodable {
    var csrf: String?
    var handle: String
    var displayName: String?
    var password: String
}

/// The sign-out form's fields.
struct SignOutForm: Decodable {
    var csrf: String?
}

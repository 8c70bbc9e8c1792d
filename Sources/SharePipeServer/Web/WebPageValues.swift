import SharePipeProtocol

/// What the templates are rendered with (read by name through reflection; see `Templates/`).
enum WebPageValues {
    /// The signed-in user in the page header.
    struct Viewer {
        var handle: String
        var displayName: String

        init(_ user: User) {
            handle = user.handle
            displayName = user.displayName
        }
    }

    struct SignIn: WebPage {
        static let template = WebTemplate.signin
        var title = "Sign in"
        var csrf: String
        var handle = ""
        var error: String?
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

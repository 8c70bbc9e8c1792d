extension ProblemDetails {
    /// 401: the handle or the password is wrong. Which one is never said.
    public static var invalidCredentials: ProblemDetails {
        ProblemDetails(
            type: TypeURI.invalidCredentials,
            title: "Wrong handle or password",
            status: 401,
            detail: "The handle or the password is wrong. Check both and try again."
        )
    }

    /// 403: this server does not take sign-ups; an administrator adds accounts with
    /// `sharepipe users add`.
    public static var signUpClosed: ProblemDetails {
        ProblemDetails(
            type: TypeURI.signUpClosed,
            title: "Sign-up is closed",
            status: 403,
            detail: "This server does not take new accounts. Ask its administrator to add you."
        )
    }

    /// 403: a form post whose CSRF token does not match the browser's, or that comes from another
    /// site. The user should reload the form and send it again.
    public static var csrfFailed: ProblemDetails {
        ProblemDetails(
            type: TypeURI.csrfFailed,
            title: "The form has expired",
            status: 403,
            detail: "The form was not sent from this site's page, or has expired. Reload the page and try again."
        )
    }

    /// 409: the handle belongs to someone else.
    /// - Parameter handle: The handle asked for.
    public static func handleTaken(_ handle: String) -> ProblemDetails {
        ProblemDetails(
            type: TypeURI.handleTaken,
            title: "The handle is taken",
            status: 409,
            detail: "@\(handle) belongs to someone else. Choose another handle."
        )
    }
}

extension ProblemDetails {
    /// 422: a `cursor` query parameter this API did not give.
    package static var invalidCursor: ProblemDetails {
        validationFailed([.init(pointer: "cursor", detail: "Not a cursor this API gave.")])
    }
}

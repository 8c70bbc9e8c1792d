/// The reasons one wall rule found, and its verdict.
///
/// A decisive reason is enough on its own (a redirect to `/login`, a Cloudflare challenge script).
/// Supporting reasons count by category, so two observations of the same thing (a password field
/// and a form posting to `/session` are both "a sign-in form") count once; each rule says which
/// combinations make a wall.
struct WallEvidence {
    /// What a supporting reason is about.
    enum Category: Hashable {
        /// The URL looks like a wall page but it is not known to differ from the one asked for.
        case url
        /// A title, `og:title` or heading.
        case title
        /// A sign-in form: a password field or a form posting to a sign-in path.
        case form
        /// `<meta name=robots content=noindex>`.
        case noindex
        /// An embedded captcha widget.
        case widget
        /// The HTTP status.
        case status
    }

    private(set) var decisive: [String] = []
    private(set) var returnParameters: [String] = []
    private(set) var supporting: [String] = []
    private(set) var categories: Set<Category> = []

    /// Records a reason that is enough on its own.
    mutating func addDecisive(_ reason: String) {
        if !decisive.contains(reason) { decisive.append(reason) }
    }

    /// Records return-parameter reasons, listed after the decisive ones; they decide nothing here.
    mutating func addReturnParameters(_ reasons: [String]) {
        for reason in reasons where !returnParameters.contains(reason) {
            returnParameters.append(reason)
        }
    }

    /// Records a reason that only counts together with another category.
    mutating func addSupporting(_ reason: String, _ category: Category) {
        if !supporting.contains(reason) { supporting.append(reason) }
        categories.insert(category)
    }

    /// A wall of `kind` with every reason, decisive first, then return parameters, then supporting.
    func wall(_ kind: LinkWall.Kind) -> LinkWall {
        LinkWall(kind: kind, evidence: decisive + returnParameters + supporting)
    }
}

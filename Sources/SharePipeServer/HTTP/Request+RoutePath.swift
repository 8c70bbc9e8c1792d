import Hummingbird

extension Request {
    /// The request's path as the router matches it: empty segments skipped, so `//v1//shares` is
    /// `/v1/shares`. Decisions made by path before routing (the API's rate limits, whether a problem
    /// is answered as a page) read this, or `//v1/shares` would reach the route while escaping them.
    var routePath: String {
        "/" + uri.path.split(separator: "/").joined(separator: "/")
    }
}

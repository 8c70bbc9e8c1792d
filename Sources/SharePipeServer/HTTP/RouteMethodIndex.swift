import Hummingbird
import Synchronization

/// The methods the router answers at each of its paths, read from the router itself once every
/// route is added, so that a request for a path the server has, with a method it does not answer
/// there, is 405 with `Allow` (RFC 9110 §15.5.6) rather than 404: on the API, the web page and the
/// images alike, with no second list of routes to keep in step.
///
/// The middleware that asks is added before the routes (Hummingbird applies a middleware only to
/// routes added after it), so the index is made empty and ``load(_:)`` fills it once they are.
final class RouteMethodIndex: Sendable {
    private struct Entry: Sendable {
        var path: RouterPath
        var methods: [String]
    }

    private let entries = Mutex<[Entry]>([])
    /// The paths of the routes mounted as web pages (``PageRoutes``).
    private let pagePaths = Mutex<[RouterPath]>([])

    init() {}

    /// Records that `path` is a web page's: a problem there is shown to a browser as a page.
    func markPage(_ path: RouterPath) {
        pagePaths.withLock { $0.append(path) }
    }

    /// Whether a problem at `path` is the web page's to show: the path is a page route's; or no
    /// route has it and its first segment is no other route's (a mistyped page address, not a
    /// mistyped API or image path).
    func servesPages(at path: some StringProtocol) -> Bool {
        let segments = path.split(separator: "/")
        let pages = pagePaths.withLock { $0 }
        if pages.contains(where: { Self.path($0, fits: segments) }) { return true }
        let routes = entries.withLock { $0 }
        if routes.contains(where: { Self.path($0.path, fits: segments) }) { return false }
        guard let first = segments.first else { return true }
        let machineRoots = routes.map(\.path).filter { route in !pages.contains(route) }.compactMap(\.components.first)
        return !machineRoots.contains { $0 ~= first }
    }

    /// Takes the router's routes (``Router/routes``), adding `HEAD` wherever `GET` is, as the
    /// router's `autoGenerateHeadEndpoints` does.
    func load<Context>(_ routes: [Router<Context>.RouteDescription]) {
        var table: [Entry] = []
        for route in routes {
            var methods = [route.method.rawValue]
            if route.method == .get { methods.append("HEAD") }
            if let index = table.firstIndex(where: { $0.path == route.path }) {
                table[index].methods.append(contentsOf: methods)
            } else {
                table.append(Entry(path: route.path, methods: methods))
            }
        }
        entries.withLock { $0 = table }
    }

    /// The methods answered at `path` (without its query): those of every route whose path it fits,
    /// in ``HTTP1Rules/methods``' order; empty when no route has this path.
    func methods(at path: some StringProtocol) -> [String] {
        let segments = path.split(separator: "/")
        var methods = Set<String>()
        for entry in entries.withLock({ $0 }) where Self.path(entry.path, fits: segments) {
            methods.formUnion(entry.methods)
        }
        return methods.sorted { (Self.order($0), $0) < (Self.order($1), $1) }
    }

    private static func path(_ route: RouterPath, fits segments: [some StringProtocol]) -> Bool {
        route.components.count == segments.count
            && zip(route.components, segments).allSatisfy { element, segment in element ~= segment }
    }

    private static func order(_ method: String) -> Int {
        HTTP1Rules.methods.firstIndex(of: method) ?? HTTP1Rules.methods.count
    }
}

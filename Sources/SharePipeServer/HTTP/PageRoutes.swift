import HTTPTypes
import Hummingbird

/// The routes of the web page: a group whose every route is recorded in the ``RouteMethodIndex`` as
/// a page, so that a problem there (and a wrong method at its paths) is shown to a browser as the
/// message page, and anywhere else as problem+json. Which answers are pages follows from where a
/// route was mounted, not from a list of paths.
struct PageRoutes: RouterMethods {
    typealias Context = ServerRequestContext

    let group: RouterGroup<Context>
    let index: RouteMethodIndex

    init(_ group: RouterGroup<Context>, index: RouteMethodIndex) {
        self.group = group
        self.index = index
    }

    @discardableResult func on<Responder: HTTPResponder>(
        _ path: RouterPath,
        method: HTTPRequest.Method,
        responder: Responder
    ) -> Self where Responder.Context == Context {
        index.markPage(path)
        group.on(path, method: method, responder: responder)
        return self
    }

    @discardableResult func add(middleware: any MiddlewareProtocol<Request, Response, Context>) -> Self {
        group.add(middleware: middleware)
        return self
    }
}

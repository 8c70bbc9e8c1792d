import Foundation
import HTTPTypes
import Hummingbird
import SharePipeProtocol

/// Resolves the principal of a request's `Authorization: Bearer` token once, for every route of its
/// group, and lets the request through only with one of `scopes`: the routes read
/// ``ServerRequestContext/principal``. The token is checked against storage on every request, so a
/// revoked device stops working at once.
///
/// ```swift
/// let app = router.group("v1").add(middleware: TokenAuthenticator(storage: storage, allowing: [.app]))
/// HighlightsController(storage: storage).addRoutes(to: app.group("highlights"))
/// ```
struct TokenAuthenticator: RouterMiddleware {
    typealias Context = ServerRequestContext

    let storage: any Storage
    /// The scopes a token may have here.
    let scopes: Set<TokenScope>
    /// When a device's use is written down (its "last used" on the Devices page).
    let uses: DeviceUseRecorder

    init(storage: any Storage, allowing scopes: Set<TokenScope>, uses: DeviceUseRecorder = DeviceUseRecorder()) {
        self.storage = storage
        self.scopes = scopes
        self.uses = uses
    }

    func handle(
        _ request: Request,
        context: Context,
        next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        var context = context
        let principal = try await principal(of: request)
        context.principal = principal
        if uses.shouldRecord(principal.deviceID) {
            // What the Devices page shows, and nothing a request depends on: a failed write costs only
            // that figure, and the next use in five minutes writes it again.
            try? await storage.recordDeviceUse(deviceID: principal.deviceID, at: Date(), from: context.clientAddress)
        }
        return try await next(request, context)
    }

    /// The principal of `request`'s token: 401 when there is none or it is unknown, revoked or
    /// expired, 403 when its scope is not one of ``scopes``.
    func principal(of request: Request) async throws -> Principal {
        guard let token = BearerToken.token(in: request.headers[.authorization]) else {
            throw ProblemDetails.tokenMissing
        }
        switch try await storage.authenticate(token: token) {
        case .valid(let principal):
            guard scopes.contains(principal.scope) else {
                throw ProblemDetails.insufficientScope(
                    required: scopes.map(\.rawValue).sorted().joined(separator: " or ")
                )
            }
            return principal
        case .unknown: throw ProblemDetails.tokenInvalid
        case .revoked: throw ProblemDetails.tokenRevoked
        case .expired: throw ProblemDetails.tokenExpired
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import SharePipeProtocol

extension ServerContext {
    /// The principal of a request's `Authorization: Bearer` token, checked on every request (a
    /// revoked device stops working at once), and allowed only with one of `scopes`.
    func principal(_ request: Request, allowing scopes: Set<TokenScope>) async throws -> Principal {
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

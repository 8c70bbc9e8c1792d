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

/// Reads the token of an `Authorization: Bearer` header, as every check of it must: the scheme in any
/// letter case (RFC 9110 §11.1), whitespace around the token ignored. One token written several ways
/// is one token, to authentication and to the per-token rate limit alike.
enum BearerToken {
    /// The token, or `nil` when the header is missing or not `Bearer`.
    static func token(in header: String?) -> String? {
        guard let header, header.count > 7, header.prefix(7).lowercased() == "bearer " else { return nil }
        let token = header.dropFirst(7).trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}

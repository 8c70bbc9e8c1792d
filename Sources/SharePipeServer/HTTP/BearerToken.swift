import Foundation

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

import Crypto
import Foundation

/// Token material: 256 random bits, base64url, behind a prefix naming the scope
/// (`sps_…` for share tokens, `spa_…` for app tokens, `spw_…` for web sessions). Only the SHA-256
/// of a token is stored.
enum DeviceToken {
    /// The prefix of web session cookies.
    static let sessionPrefix = "spw_"

    /// A new token of `scope`.
    static func generate(_ scope: TokenScope) -> String { generate(prefix: scope.prefix) }

    /// A new token behind `prefix`.
    static func generate(prefix: String) -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return prefix + Base64URL.encode(Data(bytes))
    }

    /// The stored form: lowercase hex SHA-256 of the whole token.
    static func hash(_ token: String) -> String {
        SHA256.hexDigest(of: Data(token.utf8))
    }

    /// Compares two equal-length strings without stopping at the first difference.
    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for index in x.indices { difference |= x[index] ^ y[index] }
        return difference == 0
    }
}

import Crypto
import Foundation
import Testing

@testable import SharePipeServer

@Suite("SHA-256 hex digests, as tokens and request fingerprints are stored")
struct HexDigestTests {
    @Test("The digest of known inputs matches the published test vectors, in lowercase hex")
    func knownVectors() {
        #expect(
            SHA256.hexDigest(of: Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        )
        #expect(SHA256.hexDigest(of: Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }

    @Test("A token's stored hash is its hex digest, so tokens issued before still match")
    func tokenHash() {
        let token = "sps_example"
        let expected = SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
        #expect(DeviceToken.hash(token) == expected)
    }
}

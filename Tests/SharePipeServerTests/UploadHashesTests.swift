import Crypto
import Foundation
import NIOCore
import Testing

@testable import SharePipeServer

/// The check at an upload's last byte uses the hash taken as its pieces were stored only when every
/// piece arrived in order here; anything else is hashed again from the stored bytes.
@Suite("Upload hashes taken as pieces arrive")
struct UploadHashesTests {
    let key = UploadKey(userID: UUID(), sha256: String(repeating: "a", count: 64))
    let bytes = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
    var whole: String { SHA256.hex(SHA256.hash(data: bytes)) }

    func piece(_ range: Range<Int>) -> ByteBuffer { ByteBuffer(bytes: bytes[range]) }

    @Test("Pieces in order give the SHA-256 of the whole, once")
    func inOrder() {
        let hashes = UploadHashes()
        for start in stride(from: 0, to: bytes.count, by: 3_000) {
            hashes.stored(piece(start..<min(start + 3_000, bytes.count)), of: key, at: Int64(start))
        }
        #expect(hashes.digest(of: key, size: Int64(bytes.count)) == whole)
        #expect(hashes.digest(of: key, size: Int64(bytes.count)) == nil, "taken once")
    }

    @Test("A piece from elsewhere, a size not reached, or an upload started again: no hash, or a new one")
    func outOfOrder() {
        let hashes = UploadHashes()
        hashes.stored(piece(0..<3_000), of: key, at: 0)
        hashes.stored(piece(5_000..<10_000), of: key, at: 5_000)  // bytes 3 000–5 000 stored elsewhere
        #expect(hashes.digest(of: key, size: 10_000) == nil)

        hashes.stored(piece(0..<3_000), of: key, at: 0)
        #expect(hashes.digest(of: key, size: 10_000) == nil, "not every byte was hashed")

        hashes.stored(piece(0..<3_000), of: key, at: 0)
        hashes.stored(piece(0..<5_000), of: key, at: 0)  // sent again from the start: hashed anew
        hashes.stored(piece(5_000..<10_000), of: key, at: 5_000)
        #expect(hashes.digest(of: key, size: 10_000) == whole)
    }

    @Test("Past its capacity the oldest upload is dropped, to be hashed from its bytes")
    func bounded() {
        let hashes = UploadHashes()
        let keys = (0...UploadHashes.capacity).map { _ in UploadKey(userID: UUID(), sha256: key.sha256) }
        for key in keys { hashes.stored(piece(0..<10), of: key, at: 0) }
        #expect(hashes.digest(of: keys[0], size: 10) == nil)
        #expect(hashes.digest(of: keys[1], size: 10) == SHA256.hex(SHA256.hash(data: bytes[0..<10])))
    }
}

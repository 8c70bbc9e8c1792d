import Crypto
import Foundation
import NIOCore
import NIOFoundationCompat

/// One file the upload benchmark sends: bytes no other file of the run has (so the server stores
/// each anew, never answering "already stored"), and their SHA-256, computed before any clock runs.
struct UploadBenchPayload: Sendable {
    let bytes: Data
    let sha256: String
    /// The bytes as the `PATCH` bodies of ``UploadBenchClient/pieceSize`` that carry them, made before
    /// the clock starts (the client's copying is not what is measured).
    let pieces: [ByteBuffer]

    /// `count` files of `size` bytes for `round`: one seeded random block, each file starting with
    /// its own round and index.
    static func make(count: Int, size: Int, round: Int, base: Data) -> [UploadBenchPayload] {
        (0..<count).map { index in
            var bytes = Data(base.prefix(size))
            let label = Data("sharepipe bench-upload round \(round) file \(index)\n".utf8)
            bytes.replaceSubrange(0..<label.count, with: label)
            let digest = SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
            let pieces = stride(from: 0, to: bytes.count, by: UploadBenchClient.pieceSize).map { start in
                ByteBuffer(data: bytes[start..<min(start + UploadBenchClient.pieceSize, bytes.count)])
            }
            return UploadBenchPayload(bytes: bytes, sha256: digest, pieces: pieces)
        }
    }

    /// `size` seeded random bytes.
    static func randomBlock(size: Int) -> Data {
        var generator = SplitMix64(seed: 0x5EED_0B10_B5)
        var data = Data(count: (size + 7) / 8 * 8)
        data.withUnsafeMutableBytes { raw in
            let words = raw.bindMemory(to: UInt64.self)
            for index in words.indices { words[index] = generator.next() }
        }
        return data.prefix(size)
    }
}

import Crypto
import Foundation

extension SHA256 {
    /// The SHA-256 of `data` as 64 lowercase hexadecimal digits (how tokens, request fingerprints
    /// and cache keys are stored).
    static func hexDigest(of data: some DataProtocol) -> String {
        hex(hash(data: data))
    }

    /// `digest` as 64 lowercase hexadecimal digits.
    static func hex(_ digest: SHA256.Digest) -> String {
        String(unsafeUninitializedCapacity: SHA256.byteCount * 2) { buffer in
            var index = 0
            for byte in digest {
                buffer[index] = hexDigits[Int(byte >> 4)]
                buffer[index + 1] = hexDigits[Int(byte & 0x0F)]
                index += 2
            }
            return index
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)
}

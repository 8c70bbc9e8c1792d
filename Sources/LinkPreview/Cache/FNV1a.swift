/// The 64-bit FNV-1a hash: stable across processes, platforms and releases (unlike `Hasher`), which is
/// what a file name derived from a key needs. Not a defence against chosen collisions; the file cache
/// checks the key stored in the file.
enum FNV1a {
    static let offsetBasis: UInt64 = 0xcbf2_9ce4_8422_2325
    static let prime: UInt64 = 0x0000_0100_0000_01b3

    /// The hash of the UTF-8 bytes of `text`.
    static func hash64(_ text: String) -> UInt64 {
        var hash = offsetBasis
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash &*= prime
        }
        return hash
    }

    /// The hash as 16 lowercase hexadecimal digits.
    static func hex(_ hash: UInt64) -> String {
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

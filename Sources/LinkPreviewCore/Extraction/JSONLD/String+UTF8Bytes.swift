/// Byte-level questions about a string's UTF-8, answered on its contiguous storage (the generic
/// `utf8` view algorithms are much slower).
extension String {
    /// Calls `body` with the string's UTF-8 bytes.
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        var string = self
        return try string.withUTF8(body)
    }

    /// Whether every byte is ASCII.
    var isASCIIBytes: Bool {
        withUTF8Bytes { bytes in bytes.allSatisfy { $0 < 0x80 } }
    }

    /// Whether the UTF-8 holds `byte`.
    func containsUTF8Byte(_ byte: UInt8) -> Bool {
        withUTF8Bytes { $0.contains(byte) }
    }
}

/// How two ASCII strings compare: equal bytes, equal once ASCII letters are lowercased, or not.
enum ASCIIComparison {
    case equal
    case equalIgnoringCase
    case different

    /// Compares two runs of ASCII bytes.
    static func of(_ bytes: UnsafeBufferPointer<UInt8>, _ other: UnsafeBufferPointer<UInt8>) -> ASCIIComparison {
        guard bytes.count == other.count else { return .different }
        var result = ASCIIComparison.equal
        for index in bytes.indices where bytes[index] != other[index] {
            guard ASCII.lowercased(bytes[index]) == ASCII.lowercased(other[index]) else { return .different }
            result = .equalIgnoringCase
        }
        return result
    }
}

/// Bounds-checked reads of fixed-size fields from the leading bytes of a file.
///
/// Every accessor returns nil rather than trapping when the field does not lie wholly inside the bytes,
/// and offsets are compared against the count before any addition, so input-controlled lengths cannot
/// overflow.
struct HeaderBytes: Sendable {
    let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var count: Int { bytes.count }

    /// Whether `length` bytes starting at `offset` are all present.
    @inline(__always) func has(_ length: Int, at offset: Int) -> Bool {
        offset >= 0 && length >= 0 && offset <= bytes.count && length <= bytes.count - offset
    }

    func uint8(at offset: Int) -> UInt8? {
        has(1, at: offset) ? bytes[offset] : nil
    }

    func uint16BE(at offset: Int) -> Int? {
        guard has(2, at: offset) else { return nil }
        return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
    }

    func uint16LE(at offset: Int) -> Int? {
        guard has(2, at: offset) else { return nil }
        return Int(bytes[offset + 1]) << 8 | Int(bytes[offset])
    }

    func uint24LE(at offset: Int) -> Int? {
        guard has(3, at: offset) else { return nil }
        return Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset])
    }

    func uint32BE(at offset: Int) -> Int? {
        guard has(4, at: offset) else { return nil }
        return Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
            | Int(bytes[offset + 3])
    }

    func uint32LE(at offset: Int) -> Int? {
        guard has(4, at: offset) else { return nil }
        return Int(bytes[offset + 3]) << 24 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 1]) << 8
            | Int(bytes[offset])
    }

    /// A little-endian two's-complement 32-bit field, sign-extended.
    func int32LE(at offset: Int) -> Int? {
        uint32LE(at: offset).map { Int(Int32(bitPattern: UInt32($0))) }
    }

    /// A big-endian 64-bit field, or nil if absent or too large for `Int`.
    func uint64BE(at offset: Int) -> Int? {
        guard let high = uint32BE(at: offset), let low = uint32BE(at: offset + 4), high < 0x8000_0000 else {
            return nil
        }
        return high << 32 | low
    }

    /// Whether the bytes at `offset` are exactly `expected`.
    func matches(_ expected: [UInt8], at offset: Int) -> Bool {
        guard has(expected.count, at: offset) else { return false }
        for (index, byte) in expected.enumerated() where bytes[offset + index] != byte { return false }
        return true
    }

    /// Whether the bytes at `offset` are the ASCII text `expected`.
    func matches(_ expected: StaticString, at offset: Int) -> Bool {
        expected.withUTF8Buffer { wanted in
            guard has(wanted.count, at: offset) else { return false }
            for index in 0..<wanted.count where bytes[offset + index] != wanted[index] { return false }
            return true
        }
    }

    /// The four bytes at `offset` as a four-character code such as `ftyp`, or nil.
    func fourCC(at offset: Int) -> String? {
        guard has(4, at: offset) else { return nil }
        return String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
    }
}

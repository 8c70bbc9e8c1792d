#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Fast searches over byte buffers, at memory speed where the C library vectorises them.
enum ByteSearch {
    /// The index of the first `byte` in `buffer[from...]`, or `buffer.count`.
    @inline(__always)
    static func first(_ byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard start < buffer.count, let base = buffer.baseAddress else { return buffer.count }
        guard let found = memchr(base + start, Int32(byte), buffer.count - start) else { return buffer.count }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// The index of the first of `a`, `b` or `c` in `buffer[from...]`, or `buffer.count`: the scan
    /// behind text, attribute value and comment runs.
    ///
    /// Eight bytes are tested at a time (SWAR, see ``zeroByteMarks(_:)``).
    @inline(__always)
    static func first(
        of a: UInt8,
        _ b: UInt8,
        _ c: UInt8,
        in buffer: UnsafeBufferPointer<UInt8>,
        from start: Int
    ) -> Int {
        guard let base = buffer.baseAddress else { return buffer.count }
        let count = buffer.count
        var index = start
        let (wordA, wordB, wordC) = (repeated(a), repeated(b), repeated(c))
        while index &+ 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let marks = zeroByteMarks(word ^ wordA) | zeroByteMarks(word ^ wordB) | zeroByteMarks(word ^ wordC)
            if marks != 0 { return index &+ marks.trailingZeroBitCount &>> 3 }
            index &+= 8
        }
        while index < count {
            let byte = base[index]
            if byte == a || byte == b || byte == c { return index }
            index &+= 1
        }
        return count
    }

    /// Whether `a[aStart..<aStart + count]` and `b[bStart..<bStart + count]` hold the same bytes.
    @inline(__always)
    static func equal(
        _ a: UnsafeBufferPointer<UInt8>,
        _ aStart: Int,
        _ b: UnsafeBufferPointer<UInt8>,
        _ bStart: Int,
        count: Int
    ) -> Bool {
        guard count > 0, let aBase = a.baseAddress, let bBase = b.baseAddress else { return true }
        return memcmp(aBase + aStart, bBase + bStart, count) == 0
    }

    /// `byte` in each of the eight bytes of a word.
    @inline(__always)
    static func repeated(_ byte: UInt8) -> UInt64 {
        0x0101_0101_0101_0101 &* UInt64(byte)
    }

    /// The high bit of each zero byte of `word` (little-endian), and maybe of bytes above the lowest
    /// zero byte: `(word - 0x01…01) & ~word & 0x80…80`. Nonzero exactly when `word` has a zero byte,
    /// and its lowest bit marks the lowest one. `word ^ repeated(c)` has a zero byte where `word` has `c`.
    @inline(__always)
    static func zeroByteMarks(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
    }

    /// Like ``zeroByteMarks(_:)`` for the bytes of `word` below `bound` (at most 0x80).
    @inline(__always)
    static func byteBelowMarks(_ word: UInt64, _ bound: UInt8) -> UInt64 {
        (word &- repeated(bound)) & ~word & 0x8080_8080_8080_8080
    }

    /// Whether `byte` occurs in `buffer[range]`.
    @inline(__always)
    static func contains(_ byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard !range.isEmpty, let base = buffer.baseAddress else { return false }
        return memchr(base + range.lowerBound, Int32(byte), range.count) != nil
    }
}

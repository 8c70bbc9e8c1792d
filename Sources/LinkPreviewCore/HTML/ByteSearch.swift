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
    /// Eight bytes are tested at a time (SWAR): a word XORed with a byte repeated eight times has a
    /// zero byte where that byte is, and `(x - 0x01…01) & ~x & 0x80…80` marks zero bytes, the lowest
    /// mark exactly (borrows only create false marks above a true one).
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
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let (wordA, wordB, wordC) = (ones &* UInt64(a), ones &* UInt64(b), ones &* UInt64(c))
        while index &+ 8 <= count {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
            let (xa, xb, xc) = (word ^ wordA, word ^ wordB, word ^ wordC)
            let marks = ((xa &- ones) & ~xa | (xb &- ones) & ~xb | (xc &- ones) & ~xc) & highs
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

    /// Whether `buffer[a..<a + count]` and `buffer[b..<b + count]` hold the same bytes.
    @inline(__always)
    static func equal(_ buffer: UnsafeBufferPointer<UInt8>, _ a: Int, _ b: Int, count: Int) -> Bool {
        guard count > 0, let base = buffer.baseAddress else { return true }
        return memcmp(base + a, base + b, count) == 0
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

    /// Whether `byte` occurs in `buffer[range]`.
    @inline(__always)
    static func contains(_ byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard !range.isEmpty, let base = buffer.baseAddress else { return false }
        return memchr(base + range.lowerBound, Int32(byte), range.count) != nil
    }
}

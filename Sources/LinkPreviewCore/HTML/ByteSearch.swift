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

    /// Whether `byte` occurs in `buffer[range]`.
    @inline(__always)
    static func contains(_ byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard !range.isEmpty, let base = buffer.baseAddress else { return false }
        return memchr(base + range.lowerBound, Int32(byte), range.count) != nil
    }
}

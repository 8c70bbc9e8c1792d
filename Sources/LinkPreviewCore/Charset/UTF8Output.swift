/// The output side of one `decode` call: UTF-8 collected in the decoder's scratch buffer and handed to the
/// caller's `emit` whenever the buffer fills, before a slice of the input is emitted directly, and at the
/// end of the call. It lives only for the duration of that call (it holds the non-escaping `emit`).
struct UTF8Output {
    /// U+FFFD REPLACEMENT CHARACTER in UTF-8.
    static let replacementCharacter: (UInt8, UInt8, UInt8) = (0xEF, 0xBF, 0xBD)

    /// Slices at least this long are emitted straight from the input instead of being copied.
    static let directEmitThreshold = 64

    let buffer: UnsafeMutablePointer<UInt8>
    let capacity: Int
    var count = 0
    let emit: (UnsafeBufferPointer<UInt8>) -> Void

    init(scratch: UnsafeMutableBufferPointer<UInt8>, emit: @escaping (UnsafeBufferPointer<UInt8>) -> Void) {
        precondition(scratch.count >= 16, "the scratch buffer must hold a few code points")
        self.buffer = scratch.baseAddress!
        self.capacity = scratch.count
        self.emit = emit
    }

    /// Free space at the end of the buffer.
    var freeSpace: Int { capacity - count }

    /// Hands what was collected to `emit`.
    mutating func flush() {
        guard count > 0 else { return }
        emit(UnsafeBufferPointer(start: buffer, count: count))
        count = 0
    }

    /// Makes room for `needed` bytes (at most `capacity`).
    @inline(__always)
    mutating func reserve(_ needed: Int) {
        if capacity - count < needed { flush() }
    }

    @inline(__always)
    mutating func appendReplacementCharacter() {
        reserve(3)
        buffer[count] = 0xEF
        buffer[count + 1] = 0xBF
        buffer[count + 2] = 0xBD
        count += 3
    }

    @inline(__always)
    mutating func appendASCII(_ byte: UInt8) {
        reserve(1)
        buffer[count] = byte
        count += 1
    }

    /// Appends a Unicode scalar value as UTF-8.
    @inline(__always)
    mutating func append(scalar value: UInt32) {
        reserve(4)
        switch value {
        case 0..<0x80:
            buffer[count] = UInt8(value)
            count += 1
        case 0x80..<0x800:
            buffer[count] = UInt8(0xC0 | (value >> 6))
            buffer[count + 1] = UInt8(0x80 | (value & 0x3F))
            count += 2
        case 0x800..<0x10000:
            buffer[count] = UInt8(0xE0 | (value >> 12))
            buffer[count + 1] = UInt8(0x80 | ((value >> 6) & 0x3F))
            buffer[count + 2] = UInt8(0x80 | (value & 0x3F))
            count += 3
        default:
            buffer[count] = UInt8(0xF0 | (value >> 18))
            buffer[count + 1] = UInt8(0x80 | ((value >> 12) & 0x3F))
            buffer[count + 2] = UInt8(0x80 | ((value >> 6) & 0x3F))
            buffer[count + 3] = UInt8(0x80 | (value & 0x3F))
            count += 4
        }
    }

    /// Appends bytes that are already valid UTF-8: long runs go to `emit` without a copy.
    mutating func append(validUTF8 bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        if bytes.count >= Self.directEmitThreshold || bytes.count > capacity {
            flush()
            emit(bytes.assumingMemoryBound(to: UInt8.self))
        } else {
            reserve(bytes.count)
            (buffer + count).update(from: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self), count: bytes.count)
            count += bytes.count
        }
    }
}

/// Runs `body` with a ``UTF8Output`` over `scratch` that emits to `emit`, and flushes it at the end.
func withUTF8Output<Result>(
    scratch: UnsafeMutableBufferPointer<UInt8>,
    emit: (UnsafeBufferPointer<UInt8>) -> Void,
    _ body: (inout UTF8Output) -> Result
) -> Result {
    withoutActuallyEscaping(emit) { emit in
        var output = UTF8Output(scratch: scratch, emit: emit)
        let result = body(&output)
        output.flush()
        return result
    }
}

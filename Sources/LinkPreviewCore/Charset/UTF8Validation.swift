/// UTF-8 validation as the Encoding Standard's UTF-8 decoder sees it, with an ASCII fast path that checks
/// 16 and then 8 bytes at a time.
enum UTF8Validation {
    /// Why a scan stopped.
    enum Stop: Equatable {
        /// The end of the input was reached; everything scanned was valid.
        case end
        /// An ill-formed sequence starts at the stop index; `length` bytes of it (the "maximal subpart",
        /// at least 1) become one U+FFFD, and decoding resumes after them.
        case invalid(length: Int)
        /// A sequence that is valid so far starts at the stop index but runs past the end of the input.
        case truncated
    }

    /// The continuation bytes a lead byte needs and the range its first continuation byte must fall in,
    /// or nil for a byte that cannot start a sequence (0x80–0xC1, 0xF5–0xFF).
    @inline(__always)
    static func sequenceShape(lead: UInt8) -> (needed: Int, lower: UInt8, upper: UInt8)? {
        switch lead {
        case 0xC2...0xDF: return (1, 0x80, 0xBF)
        case 0xE0: return (2, 0xA0, 0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: return (2, 0x80, 0xBF)
        case 0xED: return (2, 0x80, 0x9F)
        case 0xF0: return (3, 0x90, 0xBF)
        case 0xF1...0xF3: return (3, 0x80, 0xBF)
        case 0xF4: return (3, 0x80, 0x8F)
        default: return nil
        }
    }

    /// Scans `base[start..<end]` and returns where the valid run stops, and why.
    @inline(__always)
    static func scan(_ base: UnsafePointer<UInt8>, from start: Int, to end: Int) -> (index: Int, stop: Stop) {
        let raw = UnsafeRawPointer(base)
        var index = start
        let highBits: UInt64 = 0x8080_8080_8080_8080
        while index < end {
            // ASCII fast path: 16, then 8 bytes at a time, stopping at the first non-ASCII byte.
            while index + 16 <= end {
                let first = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) & highBits
                let second =
                    UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self)) & highBits
                if first | second != 0 {
                    index += first != 0 ? first.trailingZeroBitCount >> 3 : 8 + second.trailingZeroBitCount >> 3
                    break
                }
                index += 16
            }
            if index == end { break }
            if index + 8 <= end {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) & highBits
                index += word.trailingZeroBitCount >> 3  // 8 when all ASCII
                if word == 0 { continue }
            }
            let lead = base[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            guard let shape = sequenceShape(lead: lead) else { return (index, .invalid(length: 1)) }
            guard index + 1 < end else { return (index, .truncated) }
            let second = base[index + 1]
            guard second >= shape.lower, second <= shape.upper else { return (index, .invalid(length: 1)) }
            if shape.needed == 1 {
                index += 2
                continue
            }
            guard index + 2 < end else { return (index, .truncated) }
            guard base[index + 2] & 0xC0 == 0x80 else { return (index, .invalid(length: 2)) }
            if shape.needed == 2 {
                index += 3
                continue
            }
            guard index + 3 < end else { return (index, .truncated) }
            guard base[index + 3] & 0xC0 == 0x80 else { return (index, .invalid(length: 3)) }
            index += 4
        }
        return (end, .end)
    }

    /// Whether `bytes` is valid UTF-8, not counting a sequence cut off by the end (a prefix of a longer
    /// document may end in the middle of a character).
    static func isValidIgnoringTruncatedEnd(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return true }
        if case .invalid = scan(base, from: 0, to: bytes.count).stop { return false }
        return true
    }
}

/// The UTF-8 decoder: valid input passes through as slices of the input; each maximal subpart of an
/// ill-formed sequence becomes one U+FFFD; a sequence split by a chunk boundary is completed from the next
/// chunk.
struct UTF8Decoder {
    /// The start of a sequence cut off by the end of the previous chunk (at most 3 bytes, room for 4).
    private var pending: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
    private var pendingCount = 0

    mutating func decode(_ input: UnsafeRawBufferPointer, final: Bool, into output: inout UTF8Output) {
        var start = 0
        if pendingCount > 0 {
            start = completePending(input, into: &output)
            if pendingCount > 0 {
                // The chunk ended before the sequence did.
                if final {
                    output.appendReplacementCharacter()
                    pendingCount = 0
                }
                return
            }
        }
        guard let base = input.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let end = input.count
        while start < end {
            let (index, stop) = UTF8Validation.scan(base, from: start, to: end)
            output.append(validUTF8: UnsafeRawBufferPointer(start: base + start, count: index - start))
            switch stop {
            case .end:
                return
            case .invalid(let length):
                output.appendReplacementCharacter()
                start = index + length
            case .truncated:
                if final {
                    output.appendReplacementCharacter()
                } else {
                    withUnsafeMutableBytes(of: &pending) { pending in
                        for offset in 0..<(end - index) { pending[offset] = base[index + offset] }
                    }
                    pendingCount = end - index
                }
                return
            }
        }
    }

    /// Continues the pending sequence with bytes from `input`; returns how many input bytes it took.
    private mutating func completePending(_ input: UnsafeRawBufferPointer, into output: inout UTF8Output) -> Int {
        let shape = UTF8Validation.sequenceShape(lead: pending.0)!
        var consumed = 0
        while pendingCount <= shape.needed {
            guard consumed < input.count else { return consumed }
            let byte = input[consumed]
            let valid =
                pendingCount == 1 ? (byte >= shape.lower && byte <= shape.upper) : (byte & 0xC0 == 0x80)
            guard valid else {
                // The maximal subpart ends here; the byte itself is decoded afresh.
                output.appendReplacementCharacter()
                pendingCount = 0
                return consumed
            }
            withUnsafeMutableBytes(of: &pending) { $0[pendingCount] = byte }
            if pendingCount == shape.needed {
                let length = pendingCount + 1
                withUnsafeBytes(of: pending) {
                    output.append(validUTF8: UnsafeRawBufferPointer(rebasing: $0[..<length]))
                }
                pendingCount = 0
                return consumed + 1
            }
            pendingCount += 1
            consumed += 1
        }
        return consumed
    }
}

/// A decoder for the legacy multi-byte encodings: Shift_JIS, EUC-JP, EUC-KR, Big5, gb18030 and GBK.
///
/// The byte structure is the Encoding Standard's, read here: which bytes lead, which trail, how long a
/// sequence is, and how many bytes an error consumes (a trail byte that is ASCII is decoded afresh). Runs of
/// complete sequences go to the platform converter in one call; errors become U+FFFD here; and the few
/// sequences the converter maps differently from the standard are mapped here
/// (``LegacyDecoderExceptions``). A sequence split by a chunk boundary waits in `pending`.
///
/// EUC-JP reuses the Shift_JIS converter (the standard's EUC-JP and Shift_JIS share one JIS X 0208 index,
/// including the NEC and IBM extensions that glibc's EUC-JP lacks): its two-byte sequences are rewritten as
/// Shift_JIS before conversion. Its JIS X 0212 sequences (0x8F lead) go to the EUC-JP converter.
struct MultiByteDecoder {
    enum Scheme {
        case shiftJIS, eucJP, eucKR, big5, gb18030

        var charset: PlatformCharset {
            switch self {
            case .shiftJIS, .eucJP: .cp932
            case .eucKR: .cp949
            case .big5: .big5HKSCS
            case .gb18030: .gb18030
            }
        }
    }

    /// What the bytes at a position are.
    enum Frame {
        /// A sequence of this length for the converter (ASCII included).
        case sequence(Int)
        /// A sequence of this length decoded here to a scalar value.
        case scalar(UInt32, length: Int)
        /// A JIS X 0212 sequence of this length for the secondary (EUC-JP) converter.
        case secondary(Int)
        /// An error: one U+FFFD, consuming this many bytes.
        case error(Int)
        /// A sequence that continues past the available bytes.
        case incomplete
    }

    let scheme: Scheme
    /// The start of a sequence cut off by the end of the previous chunk (at most 3 bytes).
    private var pending: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0)
    private var pendingCount = 0

    init(scheme: Scheme) {
        self.scheme = scheme
    }

    mutating func decode(
        _ input: UnsafeRawBufferPointer,
        final: Bool,
        resources: DecoderResources,
        into output: inout UTF8Output
    ) {
        var start = 0
        if pendingCount > 0 {
            start = completePending(input, resources: resources, into: &output)
        }
        if pendingCount == 0, start < input.count, let base = input.baseAddress?.assumingMemoryBound(to: UInt8.self) {
            let end = input.count
            var index = start
            var runStart = start
            while index < end {
                if base[index] < 0x80 {
                    index += 1
                    continue
                }
                let frame = Self.frame(scheme, base + index, available: end - index)
                if case .sequence(let length) = frame {
                    index += length
                    continue
                }
                convertRun(base + runStart, count: index - runStart, resources: resources, into: &output)
                if case .incomplete = frame {
                    withUnsafeMutableBytes(of: &pending) { pending in
                        for offset in 0..<(end - index) { pending[offset] = base[index + offset] }
                    }
                    pendingCount = end - index
                    index = end
                } else {
                    index += handle(frame, at: base + index, resources: resources, into: &output)
                }
                runStart = index
            }
            convertRun(base + runStart, count: index - runStart, resources: resources, into: &output)
        }
        if final, pendingCount > 0 {
            // The standard: a sequence cut off by the end of the input is one error, whatever its length.
            pendingCount = 0
            output.appendReplacementCharacter()
        }
    }

    /// Decodes the pending bytes together with the first bytes of `input`; returns how many input bytes
    /// were used. Leaves `pendingCount` non-zero only when `input` ran out first.
    private mutating func completePending(
        _ input: UnsafeRawBufferPointer,
        resources: DecoderResources,
        into output: inout UTF8Output
    ) -> Int {
        var used = 0
        while pendingCount > 0 {
            // Pending bytes followed by enough input for any sequence (the longest has 4 bytes).
            let taken = min(input.count - used, 4)
            for offset in 0..<taken {
                withUnsafeMutableBytes(of: &pending) { $0[pendingCount + offset] = input[used + offset] }
            }
            let available = pendingCount + taken
            let consumed: Int? = withUnsafeBytes(of: pending) { raw in
                let bytes = raw.baseAddress!.assumingMemoryBound(to: UInt8.self)
                let frame = bytes[0] < 0x80 ? .sequence(1) : Self.frame(scheme, bytes, available: available)
                switch frame {
                case .incomplete:
                    return nil
                case .sequence(let length):
                    convertRun(bytes, count: length, resources: resources, into: &output)
                    return length
                default:
                    return handle(frame, at: bytes, resources: resources, into: &output)
                }
            }
            guard let consumed else {
                // Still incomplete: all of the input joined the pending bytes.
                pendingCount = available
                return input.count
            }
            if consumed >= pendingCount {
                used += consumed - pendingCount
                pendingCount = 0
            } else {
                // An error consumed only part of the pending bytes; decode the rest afresh.
                withUnsafeMutableBytes(of: &pending) { pending in
                    for offset in 0..<(pendingCount - consumed) { pending[offset] = pending[consumed + offset] }
                }
                pendingCount -= consumed
            }
        }
        return used
    }

    /// Decodes a frame that does not go to the converter in a run; returns the bytes it consumed.
    private func handle(
        _ frame: Frame,
        at bytes: UnsafePointer<UInt8>,
        resources: DecoderResources,
        into output: inout UTF8Output
    ) -> Int {
        switch frame {
        case .scalar(let value, let length):
            output.append(scalar: value)
            return length
        case .error(let length):
            output.appendReplacementCharacter()
            return length
        case .secondary(let length):
            let sequence = UnsafeRawBufferPointer(start: bytes, count: length)
            if let string = resources.secondaryConverter?.decodeString(sequence), !string.isEmpty {
                var string = string
                string.withUTF8 { output.append(validUTF8: UnsafeRawBufferPointer($0)) }
            } else {
                output.appendReplacementCharacter()
            }
            return length
        case .sequence(let length):
            convertRun(bytes, count: length, resources: resources, into: &output)
            return length
        case .incomplete:
            preconditionFailure("an incomplete sequence is kept, not handled")
        }
    }
}

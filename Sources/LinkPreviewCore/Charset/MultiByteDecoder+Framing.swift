extension MultiByteDecoder {
    /// Reads the sequence starting at `bytes[0]` (not ASCII) the way the Encoding Standard's decoder for
    /// `scheme` does: how long it is, whether it is an error and how many bytes that error consumes.
    static func frame(_ scheme: Scheme, _ bytes: UnsafePointer<UInt8>, available: Int) -> Frame {
        let lead = bytes[0]
        switch scheme {
        case .shiftJIS:
            switch lead {
            case 0x80: return .scalar(0x80, length: 1)
            case 0xA1...0xDF: return .sequence(1)
            case 0x81...0x9F, 0xE0...0xFC:
                guard available >= 2 else { return .incomplete }
                let trail = bytes[1]
                if (0x40...0x7E).contains(trail) || (0x80...0xFC).contains(trail) { return .sequence(2) }
                return .error(trail < 0x80 ? 1 : 2)
            default: return .error(1)
            }
        case .eucKR:
            guard (0x81...0xFE).contains(lead) else { return .error(1) }
            guard available >= 2 else { return .incomplete }
            let trail = bytes[1]
            return (0x41...0xFE).contains(trail) ? .sequence(2) : .error(trail < 0x80 ? 1 : 2)
        case .big5:
            guard (0x81...0xFE).contains(lead) else { return .error(1) }
            guard available >= 2 else { return .incomplete }
            let trail = bytes[1]
            guard (0x40...0x7E).contains(trail) || (0xA1...0xFE).contains(trail) else {
                return .error(trail < 0x80 ? 1 : 2)
            }
            if lead == 0xA1 || lead == 0xA2, let value = LegacyDecoderExceptions.big5(UInt16(lead) << 8 | UInt16(trail))
            {
                return .scalar(value, length: 2)
            }
            return .sequence(2)
        case .gb18030:
            if lead == 0x80 { return .scalar(0x20AC, length: 1) }
            guard lead != 0xFF else { return .error(1) }
            guard available >= 2 else { return .incomplete }
            let second = bytes[1]
            if (0x30...0x39).contains(second) {
                // Four bytes; a bad third or fourth byte is an error for the first byte alone.
                guard available >= 3 else { return .incomplete }
                guard (0x81...0xFE).contains(bytes[2]) else { return .error(1) }
                guard available >= 4 else { return .incomplete }
                guard (0x30...0x39).contains(bytes[3]) else { return .error(1) }
                return .sequence(4)
            }
            guard (0x40...0x7E).contains(second) || (0x80...0xFE).contains(second) else {
                return .error(second < 0x80 ? 1 : 2)
            }
            if let value = LegacyDecoderExceptions.gb18030TwoByteOverride(lead: lead, trail: second) {
                return .scalar(value, length: 2)
            }
            return .sequence(2)
        case .eucJP:
            switch lead {
            case 0x8E:
                guard available >= 2 else { return .incomplete }
                let trail = bytes[1]
                if (0xA1...0xDF).contains(trail) { return .scalar(0xFF61 - 0xA1 + UInt32(trail), length: 2) }
                return .error(trail < 0x80 ? 1 : 2)
            case 0x8F:
                guard available >= 2 else { return .incomplete }
                let second = bytes[1]
                guard (0xA1...0xFE).contains(second) else { return .error(second < 0x80 ? 1 : 2) }
                guard available >= 3 else { return .incomplete }
                let third = bytes[2]
                guard (0xA1...0xFE).contains(third) else { return .error(third < 0x80 ? 2 : 3) }
                return .secondary(3)
            case 0xA1...0xFE:
                guard available >= 2 else { return .incomplete }
                let trail = bytes[1]
                return (0xA1...0xFE).contains(trail) ? .sequence(2) : .error(trail < 0x80 ? 1 : 2)
            default:
                return .error(1)
            }
        }
    }

    /// The length of the sequence at `bytes[0]` inside a run that holds only complete sequences, as the
    /// converter for `scheme` reads it.
    @inline(__always)
    static func runSequenceLength(_ scheme: Scheme, _ bytes: UnsafePointer<UInt8>, available: Int) -> Int {
        let lead = bytes[0]
        if lead < 0x80 { return 1 }
        switch scheme {
        case .shiftJIS, .eucJP: return (0xA1...0xDF).contains(lead) ? 1 : min(2, available)
        case .eucKR, .big5: return min(2, available)
        case .gb18030: return available >= 4 && (0x30...0x39).contains(bytes[1]) ? 4 : min(2, available)
        }
    }

    /// Converts a run of complete sequences (see ``convertChecked(_:count:framing:reprocessesASCIITrail:resources:into:)``).
    func convertRun(
        _ bytes: UnsafePointer<UInt8>,
        count: Int,
        resources: DecoderResources,
        into output: inout UTF8Output
    ) {
        guard count > 0 else { return }
        guard scheme == .eucJP else {
            Self.convertChecked(
                bytes,
                count: count,
                framing: scheme,
                reprocessesASCIITrail: true,
                resources: resources,
                into: &output
            )
            return
        }
        // EUC-JP: rewrite as Shift_JIS (same JIS X 0208 index), a scratch buffer at a time.
        let scratch = resources.conversionScratch
        var index = 0
        while index < count {
            var written = 0
            while index < count, written + 2 <= scratch.count {
                let lead = bytes[index]
                if lead < 0x80 {
                    scratch[written] = lead
                    written += 1
                    index += 1
                } else {
                    let pointer = (Int(lead) - 0xA1) * 94 + Int(bytes[index + 1]) - 0xA1
                    (scratch[written], scratch[written + 1]) = Self.shiftJISBytes(pointer: pointer)
                    written += 2
                    index += 2
                }
            }
            Self.convertChecked(
                UnsafePointer(scratch.baseAddress!),
                count: written,
                framing: .shiftJIS,
                reprocessesASCIITrail: false,
                resources: resources,
                into: &output
            )
        }
    }

    /// The Shift_JIS bytes of a JIS X 0208 pointer (row × 94 + cell, both from 0) in the standard's index.
    @inline(__always)
    static func shiftJISBytes(pointer: Int) -> (UInt8, UInt8) {
        let lead = pointer / 188
        let trail = pointer % 188
        return (UInt8(lead + (lead < 0x1F ? 0x81 : 0xC1)), UInt8(trail + (trail < 0x3F ? 0x40 : 0x41)))
    }

    /// Converts `count` bytes of complete sequences with the converter; a sequence it rejects is mapped by
    /// ``LegacyDecoderExceptions`` or becomes U+FFFD.
    ///
    /// - Parameter reprocessesASCIITrail: Whether a rejected two-byte sequence whose second byte is ASCII
    ///   consumes only its first byte (true for the bytes of the document; false for rewritten bytes).
    static func convertChecked(
        _ bytes: UnsafePointer<UInt8>,
        count: Int,
        framing: Scheme,
        reprocessesASCIITrail: Bool,
        resources: DecoderResources,
        into output: inout UTF8Output
    ) {
        func rejected(at offset: Int) -> Int {
            let start = bytes + offset
            let length = runSequenceLength(framing, start, available: count - offset)
            if let value = exception(framing, start, length: length) {
                output.append(scalar: value)
                return length
            }
            output.appendReplacementCharacter()
            return length == 2 && reprocessesASCIITrail && start[1] < 0x80 ? 1 : length
        }
        guard let converter = resources.converter else {
            // No converter on this platform: ASCII passes, every other sequence is an error.
            var offset = 0
            while offset < count {
                if bytes[offset] < 0x80 {
                    output.appendASCII(bytes[offset])
                    offset += 1
                } else {
                    offset += rejected(at: offset)
                }
            }
            return
        }
        var offset = 0
        while offset < count {
            let rest = UnsafeRawBufferPointer(start: bytes + offset, count: count - offset)
            let conversion = converter.convert(rest, into: &output)
            guard conversion.rejected else {
                offset = count
                continue
            }
            if converter.locatesErrors {
                // The rejected sequence starts where conversion stopped, unless iconv stepped over it: then
                // the one there converts on its own (or there is none), and the rejected one ends there.
                let stop = offset + conversion.converted
                var rejectedStart = stop
                if stop > offset {
                    let length = stop < count ? runSequenceLength(framing, bytes + stop, available: count - stop) : 0
                    let next = UnsafeRawBufferPointer(start: bytes + stop, count: length)
                    if length == 0 || converter.decodeString(next) != nil {
                        rejectedStart = offset
                        while true {
                            let step = runSequenceLength(
                                framing,
                                bytes + rejectedStart,
                                available: count - rejectedStart
                            )
                            if rejectedStart + step >= stop { break }
                            rejectedStart += step
                        }
                    }
                }
                offset = rejectedStart + rejected(at: rejectedStart)
                continue
            }
            // The converter failed somewhere in `rest` without saying where: find it one sequence at a time.
            while offset < count {
                let length = runSequenceLength(framing, bytes + offset, available: count - offset)
                let sequence = UnsafeRawBufferPointer(start: bytes + offset, count: length)
                if converter.convert(sequence, into: &output).rejected {
                    offset += rejected(at: offset)
                    break
                }
                offset += length
            }
        }
    }

    /// The standard's mapping for a sequence the converter rejects, where it has one.
    private static func exception(_ scheme: Scheme, _ bytes: UnsafePointer<UInt8>, length: Int) -> UInt32? {
        switch (scheme, length) {
        case (.big5, 2): return LegacyDecoderExceptions.big5(UInt16(bytes[0]) << 8 | UInt16(bytes[1]))
        case (.gb18030, 4): return LegacyDecoderExceptions.gb18030FourByteGap(bytes)
        default: return nil
        }
    }
}

/// The Encoding Standard's ISO-2022-JP decoder, state for state.
///
/// The escape sequences, states and errors are handled here; JIS X 0208 characters are rewritten as
/// Shift_JIS and decoded by the Shift_JIS (code page 932) converter, which follows the standard's
/// JIS X 0208 index exactly. glibc's own ISO-2022-JP is not used: it recovers from errors differently and
/// lacks the NEC and IBM extensions of the standard's index.
struct ISO2022JPDecoder {
    private enum State {
        case ascii, roman, katakana, leadByte, trailByte, escapeStart, escape
    }

    private var state = State.ascii
    private var outputState = State.ascii
    private var lead: UInt8 = 0
    /// True right after an escape sequence: a second one with nothing between is an error.
    private var output = false

    mutating func decode(
        _ input: UnsafeRawBufferPointer,
        final: Bool,
        resources: DecoderResources,
        into utf8: inout UTF8Output
    ) {
        var sink = Sink(resources: resources)
        for byte in input {
            process(byte, into: &sink, &utf8)
        }
        if final {
            process(nil, into: &sink, &utf8)
            state = .ascii
            outputState = .ascii
            output = false
        }
        sink.flushPairs(&utf8)
    }

    /// One step of the decoder; `nil` is the end of the input.
    private mutating func process(_ byte: UInt8?, into sink: inout Sink, _ utf8: inout UTF8Output) {
        switch state {
        case .escapeStart:
            if let byte, byte == 0x24 || byte == 0x28 {
                lead = byte
                state = .escape
                return
            }
            output = false
            state = outputState
            sink.error(&utf8)
            process(byte, into: &sink, &utf8)
        case .escape:
            let escapeLead = lead
            lead = 0
            var next: State?
            switch (escapeLead, byte) {
            case (0x28, 0x42): next = .ascii
            case (0x28, 0x4A): next = .roman
            case (0x28, 0x49): next = .katakana
            case (0x24, 0x40), (0x24, 0x42): next = .leadByte
            default: next = nil
            }
            if let next {
                state = next
                outputState = next
                if output { sink.error(&utf8) }
                output = true
                return
            }
            output = false
            state = outputState
            sink.error(&utf8)
            process(escapeLead, into: &sink, &utf8)
            process(byte, into: &sink, &utf8)
        case .ascii, .roman, .katakana, .leadByte:
            guard let byte else { return }
            if byte == 0x1B {
                state = .escapeStart
                return
            }
            output = false
            decodeInTextState(byte, into: &sink, &utf8)
        case .trailByte:
            state = .leadByte
            guard let byte else {
                sink.error(&utf8)
                return
            }
            if byte == 0x1B {
                state = .escapeStart
                sink.error(&utf8)
            } else if (0x21...0x7E).contains(byte) {
                let pointer = (Int(lead) - 0x21) * 94 + Int(byte) - 0x21
                sink.appendJIS0208(pointer: pointer, &utf8)
            } else {
                sink.error(&utf8)
            }
        }
    }

    private mutating func decodeInTextState(_ byte: UInt8, into sink: inout Sink, _ utf8: inout UTF8Output) {
        switch state {
        case .ascii:
            if byte < 0x80, byte != 0x0E, byte != 0x0F { sink.scalar(UInt32(byte), &utf8) } else { sink.error(&utf8) }
        case .roman:
            switch byte {
            case 0x5C: sink.scalar(0x00A5, &utf8)
            case 0x7E: sink.scalar(0x203E, &utf8)
            case 0x0E, 0x0F, 0x80...: sink.error(&utf8)
            default: sink.scalar(UInt32(byte), &utf8)
            }
        case .katakana:
            if (0x21...0x5F).contains(byte) {
                sink.scalar(0xFF61 - 0x21 + UInt32(byte), &utf8)
            } else {
                sink.error(&utf8)
            }
        case .leadByte:
            if (0x21...0x7E).contains(byte) {
                lead = byte
                state = .trailByte
            } else {
                sink.error(&utf8)
            }
        default:
            preconditionFailure("not a text state")
        }
    }

    /// Collects JIS X 0208 characters as Shift_JIS pairs and converts them in batches, keeping order with
    /// everything else written.
    private struct Sink {
        let resources: DecoderResources
        var pairCount = 0

        mutating func appendJIS0208(pointer: Int, _ utf8: inout UTF8Output) {
            let scratch = resources.conversionScratch
            if pairCount + 2 > scratch.count { flushPairs(&utf8) }
            (scratch[pairCount], scratch[pairCount + 1]) = MultiByteDecoder.shiftJISBytes(pointer: pointer)
            pairCount += 2
        }

        mutating func scalar(_ value: UInt32, _ utf8: inout UTF8Output) {
            flushPairs(&utf8)
            utf8.append(scalar: value)
        }

        mutating func error(_ utf8: inout UTF8Output) {
            flushPairs(&utf8)
            utf8.appendReplacementCharacter()
        }

        mutating func flushPairs(_ utf8: inout UTF8Output) {
            guard pairCount > 0 else { return }
            MultiByteDecoder.convertChecked(
                UnsafePointer(resources.conversionScratch.baseAddress!),
                count: pairCount,
                framing: .shiftJIS,
                reprocessesASCIITrail: false,
                resources: resources,
                into: &utf8
            )
            pairCount = 0
        }
    }
}

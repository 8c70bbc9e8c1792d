/// The Encoding Standard's shared UTF-16BE/LE decoder: an unpaired surrogate becomes U+FFFD (a lead
/// surrogate followed by something other than a trail surrogate is an error, and that code unit is then
/// decoded afresh), and so does an odd byte at the end.
struct UTF16Decoder {
    let bigEndian: Bool
    private var leadByte: UInt8?
    private var leadSurrogate: UInt16?

    init(bigEndian: Bool) {
        self.bigEndian = bigEndian
    }

    mutating func decode(_ input: UnsafeRawBufferPointer, final: Bool, into output: inout UTF8Output) {
        for byte in input {
            guard let first = leadByte else {
                leadByte = byte
                continue
            }
            leadByte = nil
            let unit = bigEndian ? UInt16(first) << 8 | UInt16(byte) : UInt16(byte) << 8 | UInt16(first)
            if let lead = leadSurrogate {
                leadSurrogate = nil
                if (0xDC00...0xDFFF).contains(unit) {
                    output.append(scalar: 0x10000 + (UInt32(lead - 0xD800) << 10) + UInt32(unit - 0xDC00))
                    continue
                }
                output.appendReplacementCharacter()
                // The unit that broke the pair is decoded on its own below.
            }
            switch unit {
            case 0xD800...0xDBFF: leadSurrogate = unit
            case 0xDC00...0xDFFF: output.appendReplacementCharacter()
            default: output.append(scalar: UInt32(unit))
            }
        }
        if final, leadByte != nil || leadSurrogate != nil {
            leadByte = nil
            leadSurrogate = nil
            output.appendReplacementCharacter()
        }
    }
}

/// The Encoding Standard's x-user-defined decoder: ASCII as is, 0x80–0xFF to U+F780–U+F7FF.
struct UserDefinedDecoder {
    func decode(_ input: UnsafeRawBufferPointer, into output: inout UTF8Output) {
        for byte in input {
            if byte < 0x80 {
                output.appendASCII(byte)
            } else {
                output.append(scalar: 0xF780 + UInt32(byte - 0x80))
            }
        }
    }
}

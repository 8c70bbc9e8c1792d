/// A decoder for the legacy single-byte encodings (ISO-8859-x, windows-125x, KOI8, macintosh, …).
///
/// The table for bytes 0x80–0xFF is read from the platform converter once, when the decoder is created,
/// and corrected where the platform differs from the Encoding Standard (``LegacyDecoderExceptions``); then
/// decoding is a table lookup per byte, stateless, so chunk boundaries cannot matter. Going through the
/// table also keeps glibc's CP1255/CP1258 converters from composing Hebrew and Vietnamese marks, which
/// browsers do not do.
struct SingleByteDecoder {
    /// The scalar value for each of the bytes 0x80–0xFF; U+FFFD where the byte is undefined.
    private let upperHalf: [UInt32]

    init(encoding: TextEncoding, charset: PlatformCharset) {
        let converter = PlatformConverter(charset)
        let overrides = LegacyDecoderExceptions.singleByteOverrides(for: encoding)
        let c1Controls = LegacyDecoderExceptions.mapsUndefinedC1Bytes(encoding)
        upperHalf = (0x80...0xFF).map { (byte: UInt8) -> UInt32 in
            if let value = overrides[byte] { return value }
            let decoded = withUnsafeBytes(of: byte) { converter?.decodeString($0) }
            if let scalars = decoded?.unicodeScalars, scalars.count == 1, let scalar = scalars.first {
                return scalar.value
            }
            return c1Controls && byte <= 0x9F ? UInt32(byte) : 0xFFFD
        }
    }

    func decode(_ input: UnsafeRawBufferPointer, into output: inout UTF8Output) {
        guard let base = input.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let end = input.count
        var index = 0
        while index < end {
            // Copy ASCII runs as they are.
            let runStart = index
            while index + 8 <= end,
                UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
            }
            while index < end, base[index] < 0x80 { index += 1 }
            output.append(validUTF8: UnsafeRawBufferPointer(start: base + runStart, count: index - runStart))
            while index < end, base[index] >= 0x80 {
                output.append(scalar: upperHalf[Int(base[index]) - 0x80])
                index += 1
            }
        }
    }
}

/// The resources a ``StreamingTextDecoder`` needs between calls but that are not decoding state: the
/// platform converters (opened once) and scratch buffers. A class, so they are released in `deinit`.
///
/// None of this carries meaning from one `decode` call to the next (converters are only given complete
/// sequences), so copies of a decoder could share it — but not use it at the same time. `@unchecked
/// Sendable` is safe because `StreamingTextDecoder.decode` first makes its reference unique
/// (`isKnownUniquelyReferenced`, replacing a shared instance with a fresh one), so an instance is only ever
/// used by the one decoder value that owns it, on one thread at a time.
final class DecoderResources: @unchecked Sendable {
    /// Where UTF-8 output is collected before it is emitted.
    let outputScratch: UnsafeMutableBufferPointer<UInt8>
    /// Where EUC-JP and ISO-2022-JP rewrite JIS X 0208 characters as Shift_JIS (empty otherwise).
    let conversionScratch: UnsafeMutableBufferPointer<UInt8>
    /// The converter for the encoding's main character set, nil when none is needed or none is available.
    let converter: PlatformConverter?
    /// EUC-JP's converter for JIS X 0212 (0x8F) sequences.
    let secondaryConverter: PlatformConverter?

    init(for encoding: TextEncoding) {
        let kind = DecoderKind(encoding)
        outputScratch = .allocate(capacity: 16 * 1024)
        var needsConversionScratch = false
        switch kind {
        case .multiByte(let scheme):
            converter = PlatformConverter(scheme.charset)
            secondaryConverter = scheme == .eucJP ? PlatformConverter(.eucJP) : nil
            needsConversionScratch = scheme == .eucJP
        case .iso2022JP:
            converter = PlatformConverter(.cp932)
            secondaryConverter = nil
            needsConversionScratch = true
        default:
            converter = nil
            secondaryConverter = nil
        }
        conversionScratch = .allocate(capacity: needsConversionScratch ? 4 * 1024 : 0)
    }

    deinit {
        outputScratch.deallocate()
        conversionScratch.deallocate()
    }
}

public import Foundation

/// Decodes a byte stream in any ``TextEncoding`` to UTF-8, chunk by chunk, as a browser does.
///
/// The output is always valid UTF-8. Decoding never fails: bytes that are not valid in the encoding become
/// U+FFFD REPLACEMENT CHARACTER exactly where the Encoding Standard says (for UTF-8, one per "maximal
/// subpart" of an ill-formed sequence). Chunks may split a character anywhere; the decoder keeps the
/// incomplete part (at most a few bytes) for the next call. A byte order mark is not removed — see
/// ``CharsetDecision/bomLength`` and ``HTMLInputDecoder``, which skip it.
///
/// UTF-8 input is validated (ASCII 16 bytes at a time) and passed through: valid runs are emitted as
/// slices of the input, without a copy. UTF-16, x-user-defined and replacement are decoded here. The legacy
/// encodings go through the platform's converter — glibc iconv on Linux, CoreFoundation on Apple platforms
/// — chosen and corrected to give the standard's results (see `LegacyDecoderExceptions.swift`).
///
/// ```swift
/// var decoder = StreamingTextDecoder(encoding: .shiftJIS)
/// var utf8: [UInt8] = []
/// for chunk in chunks {
///     chunk.withUnsafeBytes { decoder.decode($0, final: false) { utf8.append(contentsOf: $0) } }
/// }
/// decoder.decode(UnsafeRawBufferPointer(start: nil, count: 0), final: true) { utf8.append(contentsOf: $0) }
/// let text = String(decoding: utf8, as: UTF8.self)
/// ```
public struct StreamingTextDecoder: Sendable {
    /// The encoding being decoded.
    public let encoding: TextEncoding
    private var state: State
    private var resources: DecoderResources

    private enum State {
        case utf8(UTF8Decoder)
        case utf16(UTF16Decoder)
        case singleByte(SingleByteDecoder)
        case multiByte(MultiByteDecoder)
        case iso2022JP(ISO2022JPDecoder)
        case replacement(ReplacementDecoder)
        case userDefined(UserDefinedDecoder)
    }

    /// Creates a decoder for `encoding`. For a legacy encoding this opens the platform converter.
    ///
    /// - Parameter encoding: The encoding of the bytes that will be decoded.
    public init(encoding: TextEncoding) {
        self.encoding = encoding
        self.resources = DecoderResources(for: encoding)
        self.state = Self.initialState(for: encoding)
    }

    private static func initialState(for encoding: TextEncoding) -> State {
        switch DecoderKind(encoding) {
        case .utf8: .utf8(UTF8Decoder())
        case .utf16(let bigEndian): .utf16(UTF16Decoder(bigEndian: bigEndian))
        case .singleByte(let charset): .singleByte(SingleByteDecoder(encoding: encoding, charset: charset))
        case .multiByte(let scheme): .multiByte(MultiByteDecoder(scheme: scheme))
        case .iso2022JP: .iso2022JP(ISO2022JPDecoder())
        case .replacement: .replacement(ReplacementDecoder())
        case .userDefined: .userDefined(UserDefinedDecoder())
        }
    }

    /// Decodes the next chunk of the stream.
    ///
    /// - Parameters:
    ///   - input: The next bytes of the stream (may be empty).
    ///   - final: True for the last call: an incomplete sequence at the end becomes U+FFFD, and the
    ///     decoder is then ready for a new stream.
    ///   - emit: Called with the UTF-8 output, in order, zero or more times. The buffer is only valid during
    ///     the call (it may be a slice of `input` or the decoder's scratch space).
    public mutating func decode(
        _ input: UnsafeRawBufferPointer,
        final: Bool,
        emit: (UnsafeBufferPointer<UInt8>) -> Void
    ) {
        if !isKnownUniquelyReferenced(&resources) {
            // A copy of this decoder shares the resources; never use them from two values.
            resources = DecoderResources(for: encoding)
        }
        let resources = self.resources
        withUTF8Output(scratch: resources.outputScratch, emit: emit) { output in
            switch state {
            case .utf8(var decoder):
                decoder.decode(input, final: final, into: &output)
                state = .utf8(decoder)
            case .utf16(var decoder):
                decoder.decode(input, final: final, into: &output)
                state = .utf16(decoder)
            case .singleByte(let decoder):
                decoder.decode(input, into: &output)
            case .multiByte(var decoder):
                decoder.decode(input, final: final, resources: resources, into: &output)
                state = .multiByte(decoder)
            case .iso2022JP(var decoder):
                decoder.decode(input, final: final, resources: resources, into: &output)
                state = .iso2022JP(decoder)
            case .replacement(var decoder):
                decoder.decode(input, into: &output)
                state = .replacement(decoder)
            case .userDefined(let decoder):
                decoder.decode(input, into: &output)
            }
        }
        if final, case .replacement = state {
            state = .replacement(ReplacementDecoder())
        }
    }

    /// Decodes a whole byte sequence to a string.
    ///
    /// ```swift
    /// StreamingTextDecoder.decode([0x82, 0xA0], as: .shiftJIS)   // "あ"
    /// ```
    ///
    /// - Parameters:
    ///   - bytes: The bytes (`[UInt8]`, `Data`, …).
    ///   - encoding: Their encoding.
    /// - Returns: The text, with U+FFFD for bytes that are not valid in the encoding.
    public static func decode(_ bytes: some ContiguousBytes, as encoding: TextEncoding) -> String {
        var decoder = StreamingTextDecoder(encoding: encoding)
        var utf8: [UInt8] = []
        bytes.withUnsafeBytes { buffer in
            utf8.reserveCapacity(buffer.count)
            decoder.decode(buffer, final: true) { utf8.append(contentsOf: $0) }
        }
        return String(decoding: utf8, as: UTF8.self)
    }
}

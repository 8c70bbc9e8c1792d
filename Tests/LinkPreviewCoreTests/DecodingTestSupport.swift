import LinkPreviewCore
import Testing

/// Decodes `bytes` whole, in one-byte chunks, and split in two at every position, and expects each way to
/// give `expected` as valid UTF-8. The chunks are slices of one buffer, so a decoder that reads past the
/// end of its chunk is caught.
func expectDecoding(
    _ bytes: [UInt8],
    as encoding: TextEncoding,
    toBe expected: String,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    var splittings: [(name: String, boundaries: [Int])] = [("whole", []), ("1-byte chunks", Array(0..<bytes.count))]
    for split in 0...bytes.count {
        splittings.append(("split at \(split)", [split]))
    }
    for (name, boundaries) in splittings {
        let utf8 = decodeInChunks(bytes, as: encoding, boundaries: boundaries)
        let text = String(validating: utf8, as: UTF8.self)
        #expect(text != nil, "\(encoding), \(name): output is not valid UTF-8", sourceLocation: sourceLocation)
        #expect(text == expected, "\(encoding), \(name)", sourceLocation: sourceLocation)
    }
}

/// Decodes `bytes` with one decoder, cutting the input at `boundaries`.
func decodeInChunks(_ bytes: [UInt8], as encoding: TextEncoding, boundaries: [Int]) -> [UInt8] {
    var decoder = StreamingTextDecoder(encoding: encoding)
    var output: [UInt8] = []
    bytes.withUnsafeBytes { buffer in
        var start = 0
        for end in boundaries + [bytes.count] {
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[start..<end])
            decoder.decode(chunk, final: end == bytes.count) { output.append(contentsOf: $0) }
            start = end
        }
    }
    return output
}

import LinkPreviewCore

/// Decodes the document and checks the decoders' promises: the output is valid UTF-8, and it does not
/// depend on how the input is split (``StreamingTextDecoder`` in the transport charset's encoding, and
/// ``HTMLInputDecoder`` with its sniffing, including the decision it makes).
enum DecoderChecks {
    /// The document as ``HTMLInputDecoder`` turns it into UTF-8 (the text the extractor tokenizes).
    static func run(_ input: FuzzInput) -> [UInt8] {
        let finest = FuzzInput.finestChunking(for: input.document.count)
        let splits: [(String, [Range<Int>])] = [
            ("whole", [0..<input.document.count]),
            ("finely", FuzzInput.chunks(of: input.document, finest, seed: input.seed)),
            ("pattern", FuzzInput.chunks(of: input.document, .mixed, seed: input.seed &+ 1)),
        ]

        let encoding = input.transportCharset.flatMap(TextEncoding.forLabel) ?? .utf8
        var streamed: [UInt8]? = nil
        for (name, ranges) in splits {
            let output = decode(input.document, ranges, as: encoding)
            requireValidUTF8(output, "StreamingTextDecoder(\(encoding)) fed \(name)")
            if let streamed {
                require(output == streamed, "StreamingTextDecoder(\(encoding)) output fed \(name) differs from whole")
            } else {
                streamed = output
            }
        }

        var sniffed: (text: [UInt8], decision: CharsetDecision?)? = nil
        for (name, ranges) in splits {
            let output = decodeHTML(input.document, ranges, transportCharset: input.transportCharset)
            requireValidUTF8(output.text, "HTMLInputDecoder fed \(name)")
            require(output.decision != nil, "HTMLInputDecoder made no decision by finish")
            if let sniffed {
                require(output.decision == sniffed.decision, "HTMLInputDecoder decision fed \(name) differs from whole")
                require(output.text == sniffed.text, "HTMLInputDecoder output fed \(name) differs from whole")
            } else {
                sniffed = output
            }
        }
        return sniffed!.text
    }

    private static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ ranges: [Range<Int>],
        as encoding: TextEncoding
    )
        -> [UInt8]
    {
        var decoder = StreamingTextDecoder(encoding: encoding)
        var output: [UInt8] = []
        for range in ranges {
            decoder.decode(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[range])), final: false) {
                output += $0
            }
        }
        decoder.decode(UnsafeRawBufferPointer(start: nil, count: 0), final: true) { output += $0 }
        return output
    }

    private static func decodeHTML(
        _ bytes: UnsafeBufferPointer<UInt8>,
        _ ranges: [Range<Int>],
        transportCharset: String?
    )
        -> (text: [UInt8], decision: CharsetDecision?)
    {
        var decoder = HTMLInputDecoder(transportCharset: transportCharset)
        var output: [UInt8] = []
        for range in ranges {
            decoder.feed(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[range]))) { output += $0 }
        }
        decoder.finish { output += $0 }
        return (output, decoder.decision)
    }

    private static func requireValidUTF8(_ bytes: [UInt8], _ what: String) {
        var iterator = bytes.makeIterator()
        var utf8 = UTF8()
        while true {
            switch utf8.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return
            case .error:
                require(false, "\(what) gave invalid UTF-8")
                return
            }
        }
    }
}

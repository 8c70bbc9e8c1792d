// The libFuzzer entry point. Built with `-parse-as-library`: libFuzzer's own `main` runs the fuzzer and
// calls `LLVMFuzzerTestOneInput` once per input. See docs/fuzzing.md.

/// Runs every check on one input; a violated invariant stops the process with `fatalError`.
///
/// The first two bytes are options (see ``FuzzInput``); the rest is the document.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: start.assumingMemoryBound(to: UInt8.self), count: count)
    guard let input = FuzzInput(bytes) else { return -1 }
    ExtractorChecks.run(input)
    let text = DecoderChecks.run(input)
    if input.tokenizesDecodedText {
        text.withUnsafeBufferPointer { TokenizerChecks.run(input, text: $0) }
    } else {
        TokenizerChecks.run(input, text: input.document)
    }
    return 0
}

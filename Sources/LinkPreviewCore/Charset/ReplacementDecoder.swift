/// The Encoding Standard's replacement decoder: one U+FFFD for a non-empty input, then nothing.
struct ReplacementDecoder {
    private var emitted = false

    mutating func decode(_ input: UnsafeRawBufferPointer, into output: inout UTF8Output) {
        guard !emitted, !input.isEmpty else { return }
        emitted = true
        output.appendReplacementCharacter()
    }
}

import LinkPreviewCore

/// Runs a bare ``HTMLTokenizer`` over the document and checks what must hold whatever the input.
///
/// - Splitting: the same bytes fed whole, one byte at a time (in 1–16-byte chunks past 8 KiB) and in the
///   input's chunk pattern give the same tokens, under default, tiny and zero limits.
/// - Limits: under tiny limits the tokens have the same shape (kinds, text, self-closing flags, which
///   DOCTYPE fields are present) as under the default limits; only what is kept of names, values,
///   comments and DOCTYPE fields may differ. Every kept part respects its limit (``TokenRecorder``).
/// - Early stop: a sink that says it is finished after a few tokens gets no token after that, and the
///   same tokens however the input is split.
enum TokenizerChecks {
    /// Tiny caps, so the "input past a limit is read but not kept" paths run on almost every token. Tag
    /// names keep 10 bytes: a name cut to 9 or fewer could become `plaintext`, `textarea`, `script`…
    /// and switch the content model, which is a difference of kept content, not of the state machine.
    static let tinyLimits = HTMLTokenizer.Limits(
        maxTagNameBytes: 10,
        maxAttributesPerTag: 2,
        maxAttributeNameBytes: 8,
        maxAttributeValueBytes: 8,
        maxCommentBytes: 8,
        maxDoctypeFieldBytes: 8
    )

    /// Nothing kept at all.
    static let zeroLimits = HTMLTokenizer.Limits(
        maxTagNameBytes: 0,
        maxAttributesPerTag: 0,
        maxAttributeNameBytes: 0,
        maxAttributeValueBytes: 0,
        maxCommentBytes: 0,
        maxDoctypeFieldBytes: 0
    )

    static func run(_ input: FuzzInput, text: UnsafeBufferPointer<UInt8>) {
        let pattern = FuzzInput.chunks(of: text, input.chunking == .whole ? .mixed : input.chunking, seed: input.seed)
        let splits: [(String, [Range<Int>])] = [
            ("whole", [0..<text.count]),
            ("finely", FuzzInput.chunks(of: text, FuzzInput.finestChunking(for: text.count), seed: input.seed)),
            ("pattern", pattern),
        ]

        var byLimits: [[RecordedToken]] = []
        for limits in [HTMLTokenizer.Limits.default, tinyLimits, zeroLimits] {
            var reference: [RecordedToken]? = nil
            for (name, ranges) in splits {
                var recorder = TokenRecorder(limits: limits, lastStartTag: input.lastStartTag)
                tokenize(text, ranges, input, limits: limits, into: &recorder)
                let tokens = recorder.finishedTokens()
                if let reference {
                    require(
                        tokens == reference,
                        "tokens fed \(name) differ from fed whole under \(limits): "
                            + firstDifference(reference, tokens)
                    )
                } else {
                    reference = tokens
                }
            }
            byLimits.append(reference!)
        }

        let full = byLimits[0].map(\.shape)
        let tiny = byLimits[1].map(\.shape)
        require(full == tiny, "tiny limits change the token shapes: " + firstDifference(full, tiny))

        checkEarlyStop(input, text: text, pattern: pattern)
    }

    /// A sink that finishes after 1–8 tokens: nothing reaches it afterwards, whatever the split.
    private static func checkEarlyStop(_ input: FuzzInput, text: UnsafeBufferPointer<UInt8>, pattern: [Range<Int>]) {
        let budget = 1 + Int(input.seed % 8)
        var whole = TokenRecorder(limits: .default, lastStartTag: input.lastStartTag, tokenBudget: budget)
        tokenize(text, [0..<text.count], input, limits: .default, into: &whole)
        var split = TokenRecorder(limits: .default, lastStartTag: input.lastStartTag, tokenBudget: budget)
        tokenize(text, pattern, input, limits: .default, into: &split)
        let wholeTokens = whole.finishedTokens()
        let splitTokens = split.finishedTokens()
        require(
            wholeTokens == splitTokens,
            "with a sink finishing after \(budget) tokens: " + firstDifference(wholeTokens, splitTokens)
        )
    }

    private static func tokenize(
        _ text: UnsafeBufferPointer<UInt8>,
        _ ranges: [Range<Int>],
        _ input: FuzzInput,
        limits: HTMLTokenizer.Limits,
        into recorder: inout TokenRecorder
    ) {
        var tokenizer = HTMLTokenizer(
            initialState: input.initialState,
            lastStartTag: input.lastStartTag,
            limits: limits,
            switchesContentModel: input.switchesContentModel,
            allowsCDATA: input.allowsCDATA
        )
        for range in ranges {
            tokenizer.feed(UnsafeBufferPointer(rebasing: text[range]), into: &recorder)
        }
        tokenizer.finish(into: &recorder)
        require(tokenizer.isStopped, "the tokenizer is not stopped after finish")
    }

    /// Where two token sequences first differ, for the crash message.
    static func firstDifference(_ a: [RecordedToken], _ b: [RecordedToken]) -> String {
        let index = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        let left = index < a.count ? String(describing: a[index]) : "end"
        let right = index < b.count ? String(describing: b[index]) : "end"
        return "token \(index): \(left.prefix(300)) vs \(right.prefix(300)) (\(a.count) vs \(b.count) tokens)"
    }
}

/// A list of lowercase phrases that title parts are compared with (``WallTitle/hasPart(in:)``), with
/// what a cheap pre-check needs: the phrases' UTF-8 bytes and the byte pairs (bigrams) each contains.
///
/// Every way a title part can match a phrase (equal to it, starting or ending with it) needs the
/// phrase's bytes somewhere in the title's normalized text. When a title is made only of scalars
/// whose comparison is byte-wise (see ``WallTitle/isByteComparable(_:)``), a phrase none of whose
/// bigrams all occur in the title cannot match, so most titles are ruled out without splitting them
/// into parts. The pre-check only ever says "cannot match"; everything else goes to the exact
/// comparison.
///
/// ```swift
/// static let titles: WallPhrases = ["just a moment", "robot check"]
/// title.hasPart(in: titles)
/// ```
struct WallPhrases: Sendable, ExpressibleByArrayLiteral {
    /// The phrases, in the order written.
    let list: [String]
    /// The phrases, for whole-part lookups.
    let set: Set<String>
    /// Each phrase as UTF-8.
    private let needles: [[UInt8]]
    /// For each phrase, the bigram slots (``WallBigrams/slot(_:_:)``) of its byte pairs.
    private let needleSlots: [[Int]]
    /// Whether every phrase is made of byte-comparable scalars; when not, the pre-check always passes.
    private let isByteComparable: Bool

    init(arrayLiteral elements: String...) {
        self.init(elements)
    }

    init(_ phrases: [String]) {
        list = phrases
        set = Set(phrases)
        needles = phrases.map { Array($0.utf8) }
        needleSlots = needles.map { bytes in
            bytes.indices.dropLast().map { WallBigrams.slot(bytes[$0], bytes[$0 + 1]) }
        }
        isByteComparable = phrases.allSatisfy { $0.unicodeScalars.allSatisfy(WallTitle.isByteComparable) }
    }

    /// Whether one of the phrases may occur in `title`'s normalized text; false only when none does.
    func mayOccur(in title: WallTitle) -> Bool {
        guard isByteComparable, let bigrams = title.bigrams else { return true }
        let found = title.normalized.utf8.withContiguousStorageIfAvailable { text in
            needles.indices.contains { index in
                needleSlots[index].allSatisfy(bigrams.contains) && Self.contains(text, needles[index])
            }
        }
        return found ?? true
    }

    private static func contains(_ haystack: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first else { return true }
        guard haystack.count >= needle.count else { return false }
        var start = 0
        while start <= haystack.count - needle.count {
            if haystack[start] == first, haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
            start += 1
        }
        return false
    }
}

/// The set of byte pairs in a text, hashed into 1024 bits: a superset test for ``WallPhrases``.
struct WallBigrams: Sendable {
    /// 1024 bits, updated through a pointer (subscripting a SIMD vector by a variable index would
    /// copy all of it through the stack on each update).
    private var words = SIMD16<UInt64>()

    /// The bigrams of `bytes`.
    init(_ bytes: [UInt8]) {
        guard bytes.count >= 2 else { return }
        withUnsafeMutableBytes(of: &words) { words in
            var previous = bytes[0]
            for byte in bytes.dropFirst() {
                let slot = Self.slot(previous, byte)
                let offset = (slot >> 6) &* 8
                let word = words.load(fromByteOffset: offset, as: UInt64.self)
                words.storeBytes(of: word | 1 << UInt64(slot & 63), toByteOffset: offset, as: UInt64.self)
                previous = byte
            }
        }
    }

    /// The bit that stands for the byte pair `first`, `second`.
    static func slot(_ first: UInt8, _ second: UInt8) -> Int {
        Int(((UInt32(first) << 8 | UInt32(second)) &* 0x9E37_79B1) >> 22)
    }

    /// Whether the bit for a slot is set (the pair may occur).
    func contains(_ slot: Int) -> Bool {
        withUnsafeBytes(of: words) { words in
            words.load(fromByteOffset: (slot >> 6) &* 8, as: UInt64.self) & (1 << UInt64(slot & 63)) != 0
        }
    }
}

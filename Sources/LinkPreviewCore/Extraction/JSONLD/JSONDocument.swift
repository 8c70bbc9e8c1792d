/// The JSON values of one script, parsed into one flat list of entries that point into the
/// script's bytes: strings are decoded only when read, and a whole script costs three arrays, not a
/// tree of arrays and strings.
///
/// Each value is one ``Entry``; a container's entry is followed by its children's, an object's as
/// key, value, key, value… ``JSONValue`` and ``JSONObject`` are views of one entry. A document never
/// changes once ``LenientJSON`` has built it.
package final class JSONDocument: Sendable {
    /// One value, or one object key.
    struct Entry: Sendable {
        enum Kind: UInt8, Sendable {
            case object, array, string, number, `true`, `false`, null
        }

        var kind: Kind
        /// Strings: the contents need no decoding (see ``LenientJSONTokenizer/Token``).
        var isVerbatim = false
        /// Strings: no byte is above 0x7F.
        var isASCII = false
        /// Objects: two keys are equal, so members must be read through ``JSONObject``'s uniquing.
        var hasRepeatedKeys = false
        /// Strings: where the contents start in the script; numbers: in ``JSONDocument/numberText``;
        /// containers: how many elements or members they hold.
        var first: Int32 = 0
        /// Strings and numbers: where the contents end; containers: the index of the entry after
        /// their last descendant.
        var second: Int32 = 0

        /// Whether two keys (or strings) that are ASCII and verbatim can be compared byte by byte.
        var isPlainASCII: Bool { isVerbatim && isASCII }

        var byteRange: Range<Int> { Int(first)..<Int(second) }

        /// The index of the entry after this value and its descendants, when this one is at `index`.
        func next(at index: Int) -> Int {
            switch kind {
            case .object, .array: Int(second)
            default: index + 1
            }
        }
    }

    /// The script's UTF-8, which strings point into.
    let bytes: [UInt8]
    /// The text of the numbers, one after the other; a number's bytes need not be contiguous in the
    /// script (`- 1`).
    let numberText: [UInt8]
    /// The values, each container followed by its children.
    let entries: [Entry]

    init(bytes: [UInt8], numberText: [UInt8], entries: [Entry]) {
        self.bytes = bytes
        self.numberText = numberText
        self.entries = entries
    }

    /// The index of the entry after the value at `index` and its descendants.
    func next(after index: Int) -> Int {
        entries[index].next(at: index)
    }

    /// The string (or key) at `index`, decoded.
    func string(at index: Int) -> String {
        bytes.withUnsafeBufferPointer { bytes in Self.string(at: index, in: entries, bytes: bytes) }
    }

    static func string(at index: Int, in entries: [Entry], bytes: UnsafeBufferPointer<UInt8>) -> String {
        string(entries[index], bytes: bytes)
    }

    static func string(_ entry: Entry, bytes: UnsafeBufferPointer<UInt8>) -> String {
        var scratch: [UInt8] = []
        // The builder kept only strings that decode.
        return LenientJSONString.decode(bytes, range: entry.byteRange, isVerbatim: entry.isVerbatim, scratch: &scratch)
            ?? ""
    }

    /// The number at `index`, as written (without the whitespace and comments inside it).
    func numberString(at index: Int) -> String {
        String(decoding: numberText[entries[index].byteRange], as: UTF8.self)
    }

    /// How the key at `index` compares with `key`: ASCII keys byte by byte (ignoring case when
    /// asked), others as Swift strings, so canonically equivalent keys are equal.
    func compareKey(at index: Int, with key: String) -> ASCIIComparison {
        key.withUTF8Bytes { key in
            bytes.withUnsafeBufferPointer { bytes in
                Self.compare(entries[index], with: key, isASCII: key.allSatisfy { $0 < 0x80 }, bytes: bytes)
            }
        }
    }

    /// The index of the value whose key is `key`, in the object at `object`, whose keys must not
    /// repeat; ignoring case, the first key equal once both are lowercased, when none is equal.
    func valueIndex(inObject object: Int, forKey key: String, ignoringCase: Bool) -> Int? {
        key.withUTF8Bytes { key in
            let keyIsASCII = key.allSatisfy { $0 < 0x80 }
            return entries.withUnsafeBufferPointer { entries in
                bytes.withUnsafeBufferPointer { bytes in
                    var caseFolded: Int?
                    var position = object + 1
                    let end = Int(entries[object].second)
                    while position < end {
                        let value = position + 1
                        switch Self.compare(entries[position], with: key, isASCII: keyIsASCII, bytes: bytes) {
                        case .equal: return value
                        case .equalIgnoringCase: caseFolded = caseFolded ?? value
                        case .different: break
                        }
                        position = entries[value].next(at: value)
                    }
                    return ignoringCase ? caseFolded : nil
                }
            }
        }
    }

    /// How the key `entry` compares with `key`.
    private static func compare(
        _ entry: Entry,
        with key: UnsafeBufferPointer<UInt8>,
        isASCII: Bool,
        bytes: UnsafeBufferPointer<UInt8>
    ) -> ASCIIComparison {
        if entry.isPlainASCII, isASCII {
            return ASCIIComparison.of(UnsafeBufferPointer(rebasing: bytes[entry.byteRange]), key)
        }
        let decoded = string(entry, bytes: bytes)
        let key = String(decoding: key, as: UTF8.self)
        if decoded == key { return .equal }
        return decoded.lowercased() == key.lowercased() ? .equalIgnoringCase : .different
    }

    /// Whether the keys at `a` and `b` are equal, as Swift strings.
    static func keysAreEqual(_ a: Int, _ b: Int, in entries: [Entry], bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let (first, second) = (entries[a], entries[b])
        if first.isPlainASCII, second.isPlainASCII {
            return first.second - first.first == second.second - second.first
                && bytes[first.byteRange].elementsEqual(bytes[second.byteRange])
        }
        return string(at: a, in: entries, bytes: bytes) == string(at: b, in: entries, bytes: bytes)
    }
}

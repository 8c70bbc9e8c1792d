/// Checks the tokens of top-level values against the JSON grammar and writes each valid one into
/// the entries of a ``JSONDocument``.
///
/// The tokens come from ``LenientJSONTokenizer``, so whitespace, comments and stray commas are gone;
/// what remains must be strict JSON: `"key": value` members, values separated by single commas,
/// brackets that pair up, and scalars that are exactly a number, `true`, `false` or `null`. The first
/// token that does not fit makes the value invalid (each method then returns false), and
/// ``startValue()`` drops what it left.
///
/// Open containers live on an explicit stack, so nesting depth costs heap, not call stack.
struct JSONValueBuilder {
    /// What the grammar allows next.
    private enum Expectation {
        /// A value (after `:` or after a comma in an array).
        case value
        /// A value or `]` (after `[`).
        case valueOrClose
        /// A comma or the closing bracket of the innermost container.
        case commaOrClose
        /// A key (after a comma in an object).
        case key
        /// A key or `}` (after `{`).
        case keyOrClose
        /// `:` (after a key).
        case colon
    }

    /// The entries of the values read so far, and perhaps of an unfinished one after them.
    private(set) var entries: [JSONDocument.Entry] = []
    /// The text of the numbers in ``entries``.
    private(set) var numberText: [UInt8] = []
    /// The indices of the complete top-level values.
    private(set) var roots: [Int] = []
    /// The indices of the open containers' entries, innermost last.
    private var stack: [Int] = []
    private var expectation = Expectation.value
    /// Where the complete values end.
    private var committedEntries = 0
    private var committedNumberText = 0
    /// Reused when checking an object's keys.
    private var keyIndices: [Int] = []

    /// Drops what an unfinished or invalid value left, ready for a new top-level value.
    mutating func startValue() {
        entries.removeLast(entries.count - committedEntries)
        numberText.removeLast(numberText.count - committedNumberText)
        stack.removeAll(keepingCapacity: true)
        expectation = .value
    }

    /// `{` or `[`.
    mutating func open(isObject: Bool) -> Bool {
        guard expectation == .value || expectation == .valueOrClose else { return false }
        add(JSONDocument.Entry(kind: isObject ? .object : .array))
        stack.append(entries.count - 1)
        expectation = isObject ? .keyOrClose : .valueOrClose
        return true
    }

    /// `}` or `]`. `bytes` are the script's, to compare an object's keys.
    mutating func close(isObject: Bool, bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Right after the opening bracket (an empty container), or after a value.
        guard let container = stack.last, (entries[container].kind == .object) == isObject,
            expectation == .commaOrClose || expectation == .valueOrClose || expectation == .keyOrClose
        else { return false }
        stack.removeLast()
        entries[container].second = Int32(entries.count)
        if isObject, entries[container].first > 1 {
            entries[container].hasRepeatedKeys = hasRepeatedKeys(in: container, bytes: bytes)
        }
        expectation = .commaOrClose
        if stack.isEmpty {
            roots.append(container)
            committedEntries = entries.count
            committedNumberText = numberText.count
        }
        return true
    }

    /// A comma between values.
    mutating func comma() -> Bool {
        guard expectation == .commaOrClose, let container = stack.last else { return false }
        expectation = entries[container].kind == .object ? .key : .value
        return true
    }

    /// Whether a string would be a key or a value here; when not, it need not be checked.
    var acceptsString: Bool {
        switch expectation {
        case .value, .valueOrClose, .key, .keyOrClose: true
        case .commaOrClose, .colon: false
        }
    }

    /// A string, a key or a value, whose contents (`range` of the script's bytes) the caller has
    /// found to decode; `isVerbatim` and `isASCII` as ``LenientJSONTokenizer/Token/string(_:isVerbatim:isASCII:)``
    /// reports them.
    mutating func string(_ range: Range<Int>, isVerbatim: Bool, isASCII: Bool) -> Bool {
        var entry = JSONDocument.Entry(kind: .string, isVerbatim: isVerbatim, isASCII: isASCII)
        entry.first = Int32(range.lowerBound)
        entry.second = Int32(range.upperBound)
        switch expectation {
        case .value, .valueOrClose:
            add(entry)
        case .key, .keyOrClose:
            entries.append(entry)
            expectation = .colon
        case .commaOrClose, .colon:
            return false
        }
        return true
    }

    /// Other bytes: `:` after a key, optionally followed by a scalar value, or a scalar value.
    mutating func scalar(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var bytes = bytes
        if expectation == .colon {
            guard bytes.first == UInt8(ascii: ":") else { return false }
            bytes = UnsafeBufferPointer(rebasing: bytes.dropFirst())
            expectation = .value
            if bytes.isEmpty { return true }
        }
        guard expectation == .value || expectation == .valueOrClose else { return false }
        switch bytes.first {
        case UInt8(ascii: "t") where bytes.elementsEqual("true".utf8): add(JSONDocument.Entry(kind: .true))
        case UInt8(ascii: "f") where bytes.elementsEqual("false".utf8): add(JSONDocument.Entry(kind: .false))
        case UInt8(ascii: "n") where bytes.elementsEqual("null".utf8): add(JSONDocument.Entry(kind: .null))
        case _ where JSONNumber.isValidSyntax(bytes) && JSONNumber.isRepresentable(bytes):
            var entry = JSONDocument.Entry(kind: .number)
            entry.first = Int32(numberText.count)
            numberText.append(contentsOf: bytes)
            entry.second = Int32(numberText.count)
            add(entry)
        default:
            return false
        }
        return true
    }

    /// Appends a value's entry, counting it in the innermost container.
    private mutating func add(_ entry: JSONDocument.Entry) {
        expectation = .commaOrClose
        entries.append(entry)
        if let container = stack.last { entries[container].first += 1 }
    }

    /// Whether two of the object's keys are equal. Typical objects are small: compared pairwise.
    private mutating func hasRepeatedKeys(in object: Int, bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        keyIndices.removeAll(keepingCapacity: true)
        var next = object + 1
        while next < entries.count {
            keyIndices.append(next)
            next = entries[next + 1].next(at: next + 1)
        }
        guard keyIndices.count <= 16 else {
            var seen = Set<String>(minimumCapacity: keyIndices.count)
            return !keyIndices.allSatisfy {
                seen.insert(JSONDocument.string(at: $0, in: entries, bytes: bytes)).inserted
            }
        }
        for position in 1..<keyIndices.count {
            for earlier in 0..<position
            where JSONDocument.keysAreEqual(keyIndices[earlier], keyIndices[position], in: entries, bytes: bytes) {
                return true
            }
        }
        return false
    }
}

/// Checks the tokens of one top-level value against the JSON grammar and builds its ``JSONValue``.
///
/// The tokens come from ``LenientJSONTokenizer``, so whitespace, comments and stray commas are gone;
/// what remains must be strict JSON: `"key": value` members, values separated by single commas,
/// brackets that pair up, and scalars that are exactly a number, `true`, `false` or `null`. The first
/// token that does not fit makes the value invalid (each method then returns false).
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

    /// An object or array not closed yet; its elements or members so far are the end of ``elements``
    /// or ``members``, from `start`.
    private struct Container {
        var isObject: Bool
        var start: Int
        /// The key of the member being read.
        var key = ""
        /// Whether every key so far is ASCII.
        var keysAreASCII = true
    }

    private var stack: [Container] = []
    /// The elements of the open arrays, innermost last.
    private var elements: [JSONValue] = []
    /// The members of the open objects, innermost last.
    private var members: [JSONObject.Member] = []
    private var expectation = Expectation.value
    /// The top-level value, once its closing bracket is read.
    private(set) var value: JSONValue?

    /// Forgets everything, ready for a new top-level value.
    mutating func reset() {
        stack.removeAll(keepingCapacity: true)
        elements.removeAll(keepingCapacity: true)
        members.removeAll(keepingCapacity: true)
        expectation = .value
        value = nil
    }

    /// `{` or `[`.
    mutating func open(isObject: Bool) -> Bool {
        guard expectation == .value || expectation == .valueOrClose else { return false }
        stack.append(Container(isObject: isObject, start: isObject ? members.count : elements.count))
        expectation = isObject ? .keyOrClose : .valueOrClose
        return true
    }

    /// `}` or `]`.
    mutating func close(isObject: Bool) -> Bool {
        // Right after the opening bracket (an empty container), or after a value.
        guard stack.last?.isObject == isObject,
            expectation == .commaOrClose || expectation == .valueOrClose || expectation == .keyOrClose
        else { return false }
        let container = stack.removeLast()
        if isObject {
            let object = JSONObject(uniquing: Array(members[container.start...]), keysAreASCII: container.keysAreASCII)
            members.removeLast(members.count - container.start)
            add(.object(object))
        } else {
            let array = Array(elements[container.start...])
            elements.removeLast(elements.count - container.start)
            add(.array(array))
        }
        return true
    }

    /// A comma between values.
    mutating func comma() -> Bool {
        guard expectation == .commaOrClose, let container = stack.last else { return false }
        expectation = container.isObject ? .key : .value
        return true
    }

    /// Whether a string would be a key or a value here; when not, it need not be decoded.
    var acceptsString: Bool {
        switch expectation {
        case .value, .valueOrClose, .key, .keyOrClose: true
        case .commaOrClose, .colon: false
        }
    }

    /// A string: a key or a value. `isKnownASCII` when the caller knows it to be ASCII; else the
    /// keys are checked.
    mutating func string(_ string: String, isKnownASCII: Bool) -> Bool {
        switch expectation {
        case .value, .valueOrClose:
            add(.string(string))
        case .key, .keyOrClose:
            stack[stack.count - 1].key = string
            if !isKnownASCII, !string.isASCIIBytes { stack[stack.count - 1].keysAreASCII = false }
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
        guard expectation == .value || expectation == .valueOrClose, let scalar = Self.scalarValue(bytes) else {
            return false
        }
        add(scalar)
        return true
    }

    private mutating func add(_ value: JSONValue) {
        expectation = .commaOrClose
        guard !stack.isEmpty else {
            self.value = value
            return
        }
        let top = stack.count - 1
        if stack[top].isObject {
            members.append(JSONObject.Member(key: stack[top].key, value: value))
        } else {
            elements.append(value)
        }
    }

    /// `true`, `false`, `null` or a number that is exactly `bytes`.
    private static func scalarValue(_ bytes: UnsafeBufferPointer<UInt8>) -> JSONValue? {
        switch bytes.first {
        case UInt8(ascii: "t"): return bytes.elementsEqual("true".utf8) ? .bool(true) : nil
        case UInt8(ascii: "f"): return bytes.elementsEqual("false".utf8) ? .bool(false) : nil
        case UInt8(ascii: "n"): return bytes.elementsEqual("null".utf8) ? .null : nil
        default:
            guard JSONNumber.isValidSyntax(bytes), JSONNumber.isRepresentable(bytes) else { return nil }
            return .number(String(decoding: bytes, as: UTF8.self))
        }
    }
}

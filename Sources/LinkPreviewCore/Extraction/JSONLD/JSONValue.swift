/// A parsed JSON value, as ``LenientJSON`` reads it: a view of one entry of a ``JSONDocument``.
/// Strings are decoded when asked for; objects keep their members in document order.
///
/// ```swift
/// let values = LenientJSON.values(in: #"{"name": "Ada", "tags": ["a", 1]}"#, maxBytes: 1 << 20, maxDepth: 64)
/// values.first?.object?["name"]?.string  // "Ada"
/// ```
package struct JSONValue: Sendable {
    /// What a value is.
    package enum Kind: Sendable {
        case string, number, bool, null, array, object
    }

    let document: JSONDocument
    let index: Int

    init(document: JSONDocument, index: Int) {
        self.document = document
        self.index = index
    }

    private var entry: JSONDocument.Entry { document.entries[index] }

    /// What the value is.
    package var kind: Kind {
        switch entry.kind {
        case .string: .string
        case .number: .number
        case .true, .false: .bool
        case .null: .null
        case .array: .array
        case .object: .object
        }
    }

    /// The string, escapes decoded, when the value is one.
    package var string: String? {
        entry.kind == .string ? document.string(at: index) : nil
    }

    /// `true` or `false`, when the value is one.
    package var bool: Bool? {
        switch entry.kind {
        case .true: true
        case .false: false
        default: nil
        }
    }

    /// The elements, in order, when the value is an array.
    package var array: [JSONValue]? {
        guard entry.kind == .array else { return nil }
        return Array(elements)
    }

    /// The elements of an array, without gathering them (empty for any other value).
    var elements: JSONElements {
        JSONElements(document: document, start: index + 1, end: entry.kind == .array ? Int(entry.second) : index + 1)
    }

    /// Whether the value is an array.
    var isArray: Bool { entry.kind == .array }

    /// The object, when the value is one.
    package var object: JSONObject? {
        entry.kind == .object ? JSONObject(document: document, index: index) : nil
    }

    /// Whether the value is an array or an object.
    package var isContainer: Bool {
        switch entry.kind {
        case .array, .object: true
        default: false
        }
    }

    /// The value as a `Double`, the way Foundation bridges what `JSONSerialization` gives (`value as?
    /// Double`): a number when it converts exactly (see ``JSONNumber/bridgedDouble(_:)``), and `true`
    /// and `false` as 1 and 0; nil for anything else.
    package var doubleValue: Double? {
        switch entry.kind {
        case .number: JSONNumber.bridgedDouble(document.numberString(at: index))
        case .true: 1
        case .false: 0
        default: nil
        }
    }
}

/// The elements of a JSON array, in order.
struct JSONElements: Sequence, IteratorProtocol {
    let document: JSONDocument
    private var position: Int
    private let end: Int

    init(document: JSONDocument, start: Int, end: Int) {
        self.document = document
        self.position = start
        self.end = end
    }

    mutating func next() -> JSONValue? {
        guard position < end else { return nil }
        defer { position = document.next(after: position) }
        return JSONValue(document: document, index: position)
    }
}

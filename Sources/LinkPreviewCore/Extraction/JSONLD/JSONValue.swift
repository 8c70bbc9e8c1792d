/// A parsed JSON value, as ``LenientJSON`` builds it: a small tree of Swift values, with objects
/// keeping their members in document order.
///
/// ```swift
/// let values = LenientJSON.values(in: #"{"name": "Ada", "tags": ["a", 1]}"#, maxBytes: 1 << 20, maxDepth: 64)
/// values.first?.object?["name"]?.string  // "Ada"
/// ```
package enum JSONValue: Sendable, Hashable {
    /// A string, escapes decoded.
    case string(String)
    /// A number, as written (always valid JSON number syntax); see ``doubleValue``.
    case number(String)
    /// `true` or `false`.
    case bool(Bool)
    /// `null`.
    case null
    /// An array, in order.
    case array([JSONValue])
    /// An object.
    case object(JSONObject)

    /// The string, when the value is one.
    package var string: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// The elements, when the value is an array.
    package var array: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The object, when the value is one.
    package var object: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// Whether the value is an array or an object.
    package var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }

    /// The value as a `Double`, the way Foundation bridges what `JSONSerialization` gives (`value as?
    /// Double`): a number when it converts exactly (see ``JSONNumber/bridgedDouble(_:)``), and `true`
    /// and `false` as 1 and 0; nil for anything else.
    package var doubleValue: Double? {
        switch self {
        case .number(let text): JSONNumber.bridgedDouble(text)
        case .bool(let bool): bool ? 1 : 0
        default: nil
        }
    }
}

internal import Foundation

/// Reads typed members out of a `JSONSerialization` tree, collecting every member of the wrong
/// JSON type (by pointer) instead of stopping at the first. A member that is absent or `null` is
/// `nil` and not an error.
struct JSONMemberReader {
    /// The members of the wrong type so far, in the order read.
    private(set) var typeErrors: [ProblemDetails.FieldError] = []

    /// The string at `object[key]`.
    mutating func string(_ object: [String: Any], _ key: String, at pointer: String) -> String? {
        guard let value = present(object[key]) else { return nil }
        return string(value, at: pointer)
    }

    /// The value itself as a string; `null` here (an array item) is an error.
    mutating func string(_ value: Any, at pointer: String) -> String? {
        if let string = value as? String { return string }
        mismatch(value, expected: "a string", at: pointer)
        return nil
    }

    /// The object at `object[key]`.
    mutating func object(_ object: [String: Any], _ key: String, at pointer: String) -> [String: Any]? {
        guard let value = present(object[key]) else { return nil }
        if let member = value as? [String: Any] { return member }
        mismatch(value, expected: "an object", at: pointer)
        return nil
    }

    /// The value itself as an object; `null` here (an array item) is an error.
    mutating func object(_ value: Any, at pointer: String) -> [String: Any]? {
        if let member = value as? [String: Any] { return member }
        mismatch(value, expected: "an object", at: pointer)
        return nil
    }

    /// The array at `object[key]`.
    mutating func array(_ object: [String: Any], _ key: String, at pointer: String) -> [Any]? {
        guard let value = present(object[key]) else { return nil }
        if let member = value as? [Any] { return member }
        mismatch(value, expected: "an array", at: pointer)
        return nil
    }

    private func present(_ value: Any?) -> Any? {
        guard let value, !(value is NSNull) else { return nil }
        return value
    }

    private mutating func mismatch(_ value: Any, expected: String, at pointer: String) {
        let name = pointer.isEmpty ? "The body" : "`\(pointer)`"
        typeErrors.append(.init(pointer: pointer, detail: "\(name) must be \(expected), not \(Self.describe(value))."))
    }

    /// The JSON type of a `JSONSerialization` value, with an article: "a number", "null"…
    static func describe(_ value: Any) -> String {
        switch value {
        case is NSNull: return "null"
        case is String: return "a string"
        case is [Any]: return "an array"
        case is [String: Any]: return "an object"
        case let number as NSNumber:
            // JSON booleans come back as the same class as NSNumber(value: true) on every platform.
            return type(of: number) == type(of: NSNumber(value: true)) ? "a boolean" : "a number"
        default: return "an unexpected value"
        }
    }
}

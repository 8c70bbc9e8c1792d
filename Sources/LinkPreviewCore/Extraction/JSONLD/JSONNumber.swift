import Foundation

/// JSON numbers: their syntax, and the values Foundation's `JSONSerialization` gives them, so that
/// ``LenientJSON`` accepts and converts numbers exactly as it did when it parsed with Foundation.
///
/// Foundation reads an integer as `Int64` or `UInt64` when it fits, a number of more than 17
/// characters as `Decimal` when its exponent is small, and anything else as `Double`; a number that
/// then overflows (`1e400`) makes the whole document invalid.
enum JSONNumber {
    /// Whether `bytes` is exactly one JSON number: `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`.
    static func isValidSyntax(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        func skipDigits() -> Bool {
            let start = index
            while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 { index += 1 }
            return index > start
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { return false }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if !skipDigits() {
            return false
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard skipDigits() else { return false }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard skipDigits() else { return false }
        }
        return index == bytes.count
    }

    /// Whether Foundation can represent a number of valid syntax; when not, it rejects the document.
    static func isRepresentable(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // Without an exponent, fewer than 300 digits always make a finite Double.
        if bytes.count < 300, !bytes.contains(where: { $0 | 0x20 == UInt8(ascii: "e") }) { return true }
        return foundationValue(String(decoding: bytes, as: UTF8.self)) != nil
    }

    /// What `JSONSerialization`'s number bridges to with `as? Double`: the integer when a `Double` holds
    /// it exactly, else nil; a decimal's nearest `Double`; nil for text that is not a representable number.
    static func bridgedDouble(_ text: String) -> Double? {
        switch foundationValue(text) {
        case .integer(let value): value
        case .floatingPoint(let value): value
        case nil: nil
        }
    }

    private enum FoundationValue {
        /// An `Int64` or `UInt64`, as `Double(exactly:)` converts it.
        case integer(Double?)
        /// A `Decimal` or a `Double`.
        case floatingPoint(Double)
    }

    /// The steps of swift-corelibs-foundation's `NSNumber.fromJSONNumber`, ending in `Double`s.
    private static func foundationValue(_ text: String) -> FoundationValue? {
        let utf8 = text.utf8
        guard let first = utf8.first else { return nil }
        let exponentStart = utf8.firstIndex(of: UInt8(ascii: "e"))  // Foundation looks for a lowercase `e` only
        let isInteger = exponentStart == nil && !utf8.contains(UInt8(ascii: "."))
        let digitCount = utf8.distance(from: utf8.startIndex, to: exponentStart ?? utf8.endIndex)
        if isInteger {
            if first == UInt8(ascii: "-") {
                if digitCount <= 19, let value = Int64(text) { return .integer(Double(exactly: value)) }
            } else {
                if digitCount <= 20, let value = UInt64(text) { return .integer(Double(exactly: value)) }
            }
        }
        var exponent = 0
        if let exponentStart, let parsed = Int(Substring(utf8[utf8.index(after: exponentStart)...])) {
            exponent = parsed
        }
        if digitCount > 17, (-128...127).contains(exponent), let decimal = Decimal(string: text), decimal.isFinite {
            return .floatingPoint(NSDecimalNumber(decimal: decimal).doubleValue)
        }
        if let double = Double(text), double.isFinite {
            return .floatingPoint(double)
        }
        return nil
    }
}

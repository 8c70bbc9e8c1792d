import ArgumentParser

/// Whole-number options checked against their range, all with one message.
package enum OptionRange {
    /// Throws `option must be lower–upper (got value).` unless `range` holds `value`.
    package static func check(_ value: Int, in range: ClosedRange<Int>, option: String) throws {
        guard range.contains(value) else {
            throw ValidationError("\(option) must be \(range.lowerBound)–\(range.upperBound) (got \(value)).")
        }
    }
}

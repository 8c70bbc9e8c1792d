/// The WHATWG named character reference table and longest-prefix lookup.
enum NamedCharacterReferences {
    /// The longest name in the table, `;` included (`CounterClockwiseContourIntegral;`).
    static let maxNameLength = 32

    /// Name bytes (with `;` when the entry has one) → replacement text as UTF-8.
    static let lookup: [[UInt8]: [UInt8]] = {
        var result: [[UInt8]: [UInt8]] = [:]
        result.reserveCapacity(2300)
        for entry in table.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            guard let equals = entry.firstIndex(of: "=") else { continue }
            let name = Array(entry[..<equals].utf8)
            var text = ""
            for hex in entry[entry.index(after: equals)...].split(separator: "+") {
                if let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) {
                    text.unicodeScalars.append(scalar)
                }
            }
            result[name] = Array(text.utf8)
        }
        return result
    }()

    /// The longest entry that is a prefix of `name` (the characters after `&`), as
    /// `(matched length, replacement UTF-8)`, or nil when none is.
    static func longestMatch(in name: ArraySlice<UInt8>) -> (length: Int, replacement: [UInt8])? {
        var length = min(name.count, maxNameLength)
        while length > 0 {
            if let replacement = lookup[Array(name.prefix(length))] {
                return (length, replacement)
            }
            length -= 1
        }
        return nil
    }
}

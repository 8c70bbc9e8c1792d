/// The WHATWG named character reference table and longest-prefix lookup.
enum NamedCharacterReferences {
    /// The longest name in the table, `;` included (`CounterClockwiseContourIntegral;`).
    static let maxNameLength = 32

    /// A name of at most 32 bytes packed into a value, so looking one up allocates nothing.
    struct Key: Hashable {
        var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)
        var length: UInt8 = 0

        init(_ bytes: some Collection<UInt8>) {
            withUnsafeMutableBytes(of: &words) { raw in
                for (index, byte) in bytes.prefix(32).enumerated() { raw[index] = byte }
            }
            length = UInt8(min(bytes.count, 32))
        }

        static func == (lhs: Key, rhs: Key) -> Bool {
            lhs.length == rhs.length && lhs.words.0 == rhs.words.0 && lhs.words.1 == rhs.words.1
                && lhs.words.2 == rhs.words.2 && lhs.words.3 == rhs.words.3
        }

        func hash(into hasher: inout Hasher) {
            hasher.combine(words.0)
            hasher.combine(words.1)
            hasher.combine(words.2)
            hasher.combine(words.3)
            hasher.combine(length)
        }
    }

    /// The lengths that names starting with each byte can have, longest first: most `&` in URLs
    /// (`&utm_source=`) start no entry, or only short ones, and are dismissed without hashing.
    static let lengthsByFirstByte: [[Int]] = {
        var lengths = [Set<Int>](repeating: [], count: 256)
        for key in lookup.keys {
            let first = withUnsafeBytes(of: key.words) { $0[0] }
            lengths[Int(first)].insert(Int(key.length))
        }
        return lengths.map { $0.sorted(by: >) }
    }()

    /// Name (with `;` when the entry has one) → replacement text as UTF-8.
    static let lookup: [Key: [UInt8]] = {
        var result: [Key: [UInt8]] = [:]
        result.reserveCapacity(2300)
        for entry in table.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            guard let equals = entry.firstIndex(of: "=") else { continue }
            let name = Key(entry[..<equals].utf8)
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
        guard let first = name.first else { return nil }
        for length in lengthsByFirstByte[Int(first)] where length <= name.count {
            if let replacement = lookup[Key(name.prefix(length))] {
                return (length, replacement)
            }
        }
        return nil
    }
}

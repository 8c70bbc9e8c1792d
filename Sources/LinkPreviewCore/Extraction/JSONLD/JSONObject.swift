/// A JSON object: its members in document order, each key once.
///
/// As with `JSONSerialization`, a repeated key keeps the last value written for it, and keys are
/// compared as Swift strings (canonically equivalent keys are one key). The member stays where the
/// key first appeared.
package struct JSONObject: Sendable, Hashable {
    /// One key and its value.
    package struct Member: Sendable, Hashable {
        /// The key, escapes decoded.
        package var key: String
        /// The value.
        package var value: JSONValue

        /// Creates a member.
        package init(key: String, value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The members, in the order their keys first appear.
    package private(set) var members: [Member]
    /// Whether every key is ASCII, so that keys can be compared byte by byte.
    private let keysAreASCII: Bool

    /// Creates an object from members as written; a repeated key keeps its last value.
    package init(uniquing members: [Member]) {
        self.init(uniquing: members, keysAreASCII: members.allSatisfy(\.key.isASCIIBytes))
    }

    /// Creates an object from members as written, whose keys the caller knows to be ASCII or not.
    init(uniquing members: [Member], keysAreASCII: Bool) {
        self.members = members
        self.keysAreASCII = keysAreASCII
        guard members.count > 1, Self.hasRepeatedKeys(members) else { return }
        var unique: [Member] = []
        var positions: [String: Int] = [:]
        for member in members {
            if let position = positions[member.key] {
                unique[position].value = member.value
            } else {
                positions[member.key] = unique.count
                unique.append(member)
            }
        }
        self.members = unique
    }

    /// The number of members.
    package var count: Int { members.count }

    /// The keys, in order.
    package var keys: some Sequence<String> { members.lazy.map(\.key) }

    /// The value for `key`, compared exactly (as Swift strings).
    package subscript(_ key: String) -> JSONValue? {
        if keysAreASCII, key.isASCIIBytes {
            // ASCII strings are equal when their bytes are.
            for member in members where member.key.asciiComparison(with: key) == .equal {
                return member.value
            }
            return nil
        }
        return members.first { $0.key == key }?.value
    }

    /// The value for `key`; when no key is equal, the first key equal to it once both are lowercased.
    package func value(forKeyIgnoringCase key: String) -> JSONValue? {
        guard keysAreASCII, key.isASCIIBytes else {
            if let value = self[key] { return value }
            let folded = key.lowercased()
            return members.first { $0.key.lowercased() == folded }?.value
        }
        // Lowercasing ASCII changes only letters.
        var caseFolded: JSONValue?
        for member in members {
            switch member.key.asciiComparison(with: key) {
            case .equal: return member.value
            case .equalIgnoringCase: caseFolded = caseFolded ?? member.value
            case .different: continue
            }
        }
        return caseFolded
    }

    /// Whether two members have equal keys. Typical objects are small: compared pairwise.
    private static func hasRepeatedKeys(_ members: [Member]) -> Bool {
        guard members.count <= 16 else {
            var seen = Set<String>(minimumCapacity: members.count)
            return !members.allSatisfy { seen.insert($0.key).inserted }
        }
        for index in 1..<members.count {
            for earlier in 0..<index where members[earlier].key == members[index].key {
                return true
            }
        }
        return false
    }
}

/// A JSON object: its members in document order, each key once; a view of one entry of a
/// ``JSONDocument``.
///
/// As with `JSONSerialization`, a repeated key keeps the last value written for it, and keys are
/// compared as Swift strings (canonically equivalent keys are one key). The member stays where the
/// key first appeared.
package struct JSONObject: Sendable {
    /// One key and its value.
    package struct Member: Sendable {
        let document: JSONDocument
        let keyIndex: Int
        let valueIndex: Int

        /// The key, escapes decoded.
        package var key: String { document.string(at: keyIndex) }

        /// The value.
        package var value: JSONValue { JSONValue(document: document, index: valueIndex) }

        /// How the key compares with `key`; see ``JSONDocument/compareKey(at:with:)``.
        func compareKey(with key: String) -> ASCIIComparison {
            document.compareKey(at: keyIndex, with: key)
        }
    }

    let document: JSONDocument
    let index: Int

    init(document: JSONDocument, index: Int) {
        self.document = document
        self.index = index
    }

    /// The members, in the order their keys first appear.
    package var members: JSONMembers {
        let entry = document.entries[index]
        guard entry.hasRepeatedKeys else {
            return JSONMembers(document: document, storage: .entries(next: index + 1, end: Int(entry.second)))
        }
        return JSONMembers(document: document, storage: .uniqued(uniqueMembers(), position: 0))
    }

    /// The number of members.
    package var count: Int {
        let entry = document.entries[index]
        return entry.hasRepeatedKeys ? uniqueMembers().count : Int(entry.first)
    }

    /// The value for `key`, compared exactly (as Swift strings).
    package subscript(_ key: String) -> JSONValue? {
        value(forKey: key, ignoringCase: false)
    }

    /// The value for `key`; when no key is equal, the first key equal to it once both are lowercased.
    package func value(forKeyIgnoringCase key: String) -> JSONValue? {
        value(forKey: key, ignoringCase: true)
    }

    private func value(forKey key: String, ignoringCase: Bool) -> JSONValue? {
        guard document.entries[index].hasRepeatedKeys else {
            let valueIndex = document.valueIndex(inObject: index, forKey: key, ignoringCase: ignoringCase)
            return valueIndex.map { JSONValue(document: document, index: $0) }
        }
        var caseFolded: JSONValue?
        for member in members {
            switch document.compareKey(at: member.keyIndex, with: key) {
            case .equal: return member.value
            case .equalIgnoringCase: caseFolded = caseFolded ?? member.value
            case .different: continue
            }
        }
        return ignoringCase ? caseFolded : nil
    }

    /// The members as written, each repeated key once: where it first appears, with its last value.
    private func uniqueMembers() -> [Member] {
        var unique: [Member] = []
        var positions: [String: Int] = [:]
        var members = JSONMembers(
            document: document,
            storage: .entries(next: index + 1, end: Int(document.entries[index].second))
        )
        while let member = members.next() {
            if let position = positions[member.key] {
                unique[position] = Member(
                    document: document,
                    keyIndex: unique[position].keyIndex,
                    valueIndex: member.valueIndex
                )
            } else {
                positions[member.key] = unique.count
                unique.append(member)
            }
        }
        return unique
    }
}

/// The members of a JSON object, in order.
package struct JSONMembers: Sequence, IteratorProtocol, Sendable {
    enum Storage: Sendable {
        /// Read from the document's entries, key after value, from `next`.
        case entries(next: Int, end: Int)
        /// Gathered first, for an object whose keys repeat.
        case uniqued([JSONObject.Member], position: Int)
    }

    let document: JSONDocument
    var storage: Storage

    package mutating func next() -> JSONObject.Member? {
        switch storage {
        case .entries(let next, let end):
            guard next < end else { return nil }
            let valueIndex = next + 1
            storage = .entries(next: document.next(after: valueIndex), end: end)
            return JSONObject.Member(document: document, keyIndex: next, valueIndex: valueIndex)
        case .uniqued(let members, let position):
            guard position < members.count else { return nil }
            storage = .uniqued(members, position: position + 1)
            return members[position]
        }
    }
}

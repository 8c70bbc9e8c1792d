/// A page's metas by key, for the assembler's lookups of some sixty keys.
///
/// Built once per page with one table entry per distinct key and the metas of one key chained in
/// document order, so building it allocates no array per key.
struct MetaIndex {
    private let metas: [PageObservations.Meta]
    /// The position of the first meta with each key.
    private var firstPosition: [String: Int] = [:]
    /// For each meta, the position of the next one with its key, or -1.
    private var nextPosition: [Int]

    init(_ metas: [PageObservations.Meta]) {
        self.metas = metas
        nextPosition = Array(repeating: -1, count: metas.count)
        firstPosition.reserveCapacity(metas.count)
        for position in metas.indices.reversed() {
            nextPosition[position] = firstPosition.updateValue(position, forKey: metas[position].key) ?? -1
        }
    }

    /// The contents of every meta with `key`, in document order.
    func contents(_ key: String) -> [String] {
        guard var position = firstPosition[key] else { return [] }
        var result: [String] = []
        while position >= 0 {
            result.append(metas[position].content)
            position = nextPosition[position]
        }
        return result
    }

    /// The content of the first meta with `key` that is not blank.
    func firstContent(_ key: String) -> String? {
        guard var position = firstPosition[key] else { return nil }
        while position >= 0 {
            let content = metas[position].content
            if !Self.isBlank(content) { return content }
            position = nextPosition[position]
        }
        return nil
    }

    /// Whether `text` is empty or only whitespace; the common case, text starting with a visible
    /// ASCII character, is decided by its first byte.
    private static func isBlank(_ text: String) -> Bool {
        if let first = text.utf8.first, first > 0x20, first < 0x80 { return false }
        return text.allSatisfy(\.isWhitespace)
    }
}

/// One page of a list read by keyset (newest first, after the cursor of the page before): the storage
/// is asked for one row more than the page shows, so the page knows whether another follows. A list
/// whose length is a multiple of the page size then ends without a cursor, instead of with one that
/// leads to an empty page.
struct KeysetPage<Row> {
    /// The rows the page shows, at most the limit.
    var rows: [Row]
    /// Whether rows follow the last one.
    var hasMore: Bool

    /// The page of `limit` rows out of `fetched`, which the storage read with a limit of `limit + 1`
    /// (``fetchLimit(for:)``).
    init(fetched: [Row], limit: Int) {
        rows = Array(fetched.prefix(limit))
        hasMore = fetched.count > limit
    }

    /// The limit to read a page of `limit` rows with.
    static func fetchLimit(for limit: Int) -> Int { limit + 1 }

    /// The next page's cursor token, made from the last row; nil on the last page.
    func nextCursor(_ cursor: (Row) -> ShareCursor) -> String? {
        hasMore ? rows.last.map { cursor($0).token } : nil
    }
}

import SQLKit

extension SQLQueryString {
    /// Appends ` AND (time < t OR (time = t AND id < i))`: the rows after a page that ended at
    /// (`time`, `id`), for lists ordered by `time DESC, id DESC` (keyset pagination: stable while
    /// rows are added, and as fast on page 1,000 as on page 2).
    mutating func appendKeyset(timeColumn: String, idColumn: String, before time: Int64, id: String) {
        appendInterpolation(unsafeRaw: " AND (\(timeColumn) < ")
        appendInterpolation(bind: time)
        appendInterpolation(unsafeRaw: " OR (\(timeColumn) = ")
        appendInterpolation(bind: time)
        appendInterpolation(unsafeRaw: " AND \(idColumn) < ")
        appendInterpolation(bind: id)
        appendInterpolation(unsafeRaw: "))")
    }
}

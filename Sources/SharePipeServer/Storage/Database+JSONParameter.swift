import Foundation
import SQLKit

extension Database.Dialect {
    /// `column` is one of the texts of `list`, a JSON array of strings bound as one parameter: one bind
    /// however many values, where `IN (?, ?, …)` costs a bind (encoded, sent, decoded) per value.
    ///
    /// On PostgreSQL the array is built once (`= ANY(ARRAY(…))`), so an index on `column` is used
    /// whatever the planner knows of the table. As `IN (SELECT … FROM jsonb_array_elements_text(…))`
    /// a table grown since its last `ANALYZE` was joined by a nested loop: 500 ids among 20,000
    /// fresh shelf items took 1.2 s instead of 1 ms. SQLite reads `IN (SELECT value FROM json_each(…))`
    /// through an index of its own.
    func column(_ column: String, isIn list: String) -> SQLQueryString {
        switch self {
        case .postgres: "\(unsafeRaw: column) = ANY(ARRAY(SELECT jsonb_array_elements_text(\(bind: list)::jsonb)))"
        case .sqlite: "\(unsafeRaw: column) IN (SELECT value FROM json_each(\(bind: list)))"
        }
    }

    /// The texts of `list` (a JSON array of strings bound as one parameter) as a table named `alias`,
    /// one row each, the text in `alias.value`. Put it first and join the next table with
    /// `CROSS JOIN`, its conditions in `WHERE`: SQLite then keeps the list as the outer loop and
    /// searches the table's index for each text, and PostgreSQL plans from the list.
    ///
    /// Measured on 500 of a user's 20,000 shelf sources: filtered by ``column(_:isIn:)``, PostgreSQL,
    /// on a table it had not analyzed yet, took 200 ms (10 ms from the list); SQLite, left to choose,
    /// made `json_each` the innermost loop and read it whole for each source (80 s for one switch of a
    /// 20,000-link group; 3 ms a round with the list outside).
    func rows(of list: String, as alias: String) -> SQLQueryString {
        switch self {
        case .postgres: "jsonb_array_elements_text(\(bind: list)::jsonb) AS \(unsafeRaw: alias)(value)"
        case .sqlite: "json_each(\(bind: list)) AS \(unsafeRaw: alias)"
        }
    }

    /// ``rows(of:as:)`` with each text's place in the list in `alias.ord` (increasing from the first).
    func numberedRows(of list: String, as alias: String) -> SQLQueryString {
        switch self {
        case .postgres: "jsonb_array_elements_text(\(bind: list)::jsonb) WITH ORDINALITY AS \(unsafeRaw: alias)(value, ord)"
        case .sqlite: "(SELECT value, key AS ord FROM json_each(\(bind: list))) AS \(unsafeRaw: alias)"
        }
    }
}

extension Database {
    /// `value` as JSON text, to bind as one parameter.
    static func jsonText(_ value: some Encodable) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }
}

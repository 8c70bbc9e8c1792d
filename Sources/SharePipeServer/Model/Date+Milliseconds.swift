package import Foundation

extension Date {
    /// The whole milliseconds since 1970, rounded: how the database keeps times, and what cursors name.
    package var millisecondsSince1970: Int64 { Int64((timeIntervalSince1970 * 1000).rounded()) }

    /// The time `milliseconds` after 1970.
    package init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}

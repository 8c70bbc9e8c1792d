import ArgumentParser
import Foundation
import SharePipeProtocol

extension Device {
    /// A device name given on the command line, as the server's `POST /v1/devices` keeps it
    /// (``Device/name(from:)``: trimmed, within ``Device/maxNameLength``); a ``ValidationError`` naming
    /// `option` when it breaks the rule.
    static func name(argument text: String, option: String) throws -> String {
        guard let name = Device.name(from: text) else {
            let count = text.trimmingCharacters(in: .whitespacesAndNewlines).count
            throw ValidationError("\(option) must be 1–\(Device.maxNameLength) characters (got \(count)).")
        }
        return name
    }
}

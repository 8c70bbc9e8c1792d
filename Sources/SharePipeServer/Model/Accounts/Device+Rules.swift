import Foundation

extension Device {
    /// The longest device name, in characters.
    public static let maxNameLength = 100

    /// `text` as a device name is kept (trimmed of white space and line breaks), or nil when that is
    /// empty or over ``maxNameLength`` characters.
    public static func name(from text: String) -> String? {
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return (1...maxNameLength).contains(name.count) ? name : nil
    }
}

import Foundation

extension Device {
    /// The longest device name, in characters.
    public static let maxNameLength = 100

    /// `text` as a device name is kept (trimmed of white space and line breaks), or nil when that is
    /// empty or over ``maxNameLength`` characters.
    ///
    /// ```swift
    /// Device.name(from: "  Ada's iPhone\n")   // "Ada's iPhone"
    /// Device.name(from: " ")                  // nil
    /// ```
    public static func name(from text: String) -> String? {
        let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return (1...maxNameLength).contains(name.count) ? name : nil
    }

    /// What to tell someone whose device name breaks the rule.
    public static let nameRule = "Use 1–\(maxNameLength) characters for the device's name."
}

import Foundation

/// A cheap check that bytes are markup, so `extract` can refuse a PDF or an image with a clear message.
enum HTMLSniffing {
    /// Whether the first KiB (after a BOM and whitespace) contains a `<` followed by a letter, `!` or `?`
    /// and no NUL byte (binary files have them; UTF-16 is recognised by its BOM).
    static func looksLikeHTML(_ data: Data) -> Bool {
        let head = data.prefix(1024)
        if head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) { return true }
        if head.contains(0) { return false }
        let bytes = Array(head)
        for index in bytes.indices.dropLast() where bytes[index] == UInt8(ascii: "<") {
            let next = bytes[index + 1]
            if (next | 0x20) >= UInt8(ascii: "a") && (next | 0x20) <= UInt8(ascii: "z") || next == UInt8(ascii: "!")
                || next == UInt8(ascii: "?")
            {
                return true
            }
        }
        return false
    }
}

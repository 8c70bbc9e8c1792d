/// The one byte range a `Range` header asks for (RFC 9110 §14.1.2), as a video player or a resumed
/// download sends it: `bytes=FIRST-LAST`, `bytes=FIRST-` or `bytes=-SUFFIX`.
///
/// Only single ranges are taken; a header with several ranges, another unit or a syntax error is
/// ignored, as §14.2 lets a server do, and the whole file is sent.
enum ByteRangeRequest: Equatable, Sendable {
    /// `bytes=FIRST-LAST` (LAST inclusive) or, with no LAST, `bytes=FIRST-`.
    case from(Int64, through: Int64?)
    /// `bytes=-SUFFIX`: the last SUFFIX bytes.
    case suffix(Int64)

    /// What a `Range` header asks for, or nil when it is to be ignored.
    init?(header: String) {
        let value = header.trimmingSpaces
        guard value.count > 6, value.prefix(6).lowercased() == "bytes=" else { return nil }
        let spec = value.dropFirst(6).trimmingSpaces
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let first = spec[..<dash].trimmingSpaces
        let last = spec[spec.index(after: dash)...].trimmingSpaces
        if first.isEmpty {
            guard let suffix = Self.number(last) else { return nil }
            self = .suffix(suffix)
        } else {
            guard let start = Self.number(first) else { return nil }
            if last.isEmpty {
                self = .from(start, through: nil)
            } else {
                guard let end = Self.number(last), end >= start else { return nil }
                self = .from(start, through: end)
            }
        }
    }

    /// The bytes of a representation of `size` bytes this asks for, or nil when none of them exist
    /// (416 Range Not Satisfiable).
    func bytes(of size: Int64) -> Range<Int64>? {
        switch self {
        case .from(let start, let end):
            guard start < size else { return nil }
            return start..<min(end.map { $0 + 1 } ?? size, size)
        case .suffix(let count):
            guard count > 0, size > 0 else { return nil }
            return max(0, size - count)..<size
        }
    }

    /// A decimal of at most 18 digits (so it fits an `Int64` with room to add one).
    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int64(text)
    }
}

extension StringProtocol where SubSequence == Substring {
    /// Without the spaces and tabs around it (HTTP's optional whitespace).
    fileprivate var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}

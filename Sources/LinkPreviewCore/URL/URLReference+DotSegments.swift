import Foundation

/// Removal of `.` and `..` path segments (RFC 3986 section 5.2.4), which Foundation applies when it
/// merges a relative reference but not to an absolute one: the one remover, for ``URLResolver``'s
/// references and ``URLNormalizer``'s links alike.
extension URLReference {
    /// Whether a percent-encoded path has a `.` or `..` segment (`%2e` counting as `.`).
    static func hasDotSegments(_ path: String) -> Bool {
        if let ascii = path.utf8.withContiguousStorageIfAvailable(asciiHasDotSegments), let result = ascii {
            return result
        }
        guard path.utf8.contains(0x2E) || path.utf8.contains(0x25) else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).contains { isDot($0) || isDoubleDot($0) }
    }

    /// ``hasDotSegments(_:)`` byte by byte, or nil when the path is not ASCII.
    private static func asciiHasDotSegments(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool? {
        var found = false
        var segmentStart = 0
        for index in 0...bytes.count {
            if index < bytes.count {
                if bytes[index] >= 0x80 { return nil }
                if bytes[index] != 0x2F { continue }
            }
            if !found, let dots = dotCount(UnsafeBufferPointer(rebasing: bytes[segmentStart..<index])), dots <= 2 {
                found = true
            }
            segmentStart = index + 1
        }
        return found
    }

    /// How many dots a segment made only of `.` and `%2e` (either case) has; nil for any other segment.
    private static func dotCount(_ segment: UnsafeBufferPointer<UInt8>) -> Int? {
        var count = 0
        var index = 0
        while index < segment.count {
            if segment[index] == 0x2E {
                index += 1
            } else if segment[index] == 0x25, index + 2 < segment.count, segment[index + 1] == 0x32,
                segment[index + 2] | 0x20 == 0x65
            {
                index += 3
            } else {
                return nil
            }
            count += 1
        }
        return count == 0 ? nil : count
    }

    /// Returns `url` with the dot segments of its path removed, query and fragment untouched.
    static func removingDotSegments(from url: URL) -> URL? {
        let text = url.absoluteString
        guard let range = URLComponents(string: text)?.rangeOfPath else { return url }
        var result = text
        result.replaceSubrange(range, with: removingDotSegments(fromPath: String(text[range])))
        return URL(string: result)
    }

    /// `/a/./b/../c/` → `/a/c/`; a `..` above the root is dropped, a trailing dot segment leaves a `/`.
    static func removingDotSegments(fromPath path: String) -> String {
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        let absolute = path.hasPrefix("/")
        var output: [Substring] = []
        for (index, segment) in segments.enumerated() {
            if absolute, index == 0 { continue }
            let isLast = index == segments.count - 1
            if isDot(segment) {
                if isLast { output.append("") }
            } else if isDoubleDot(segment) {
                if !output.isEmpty { output.removeLast() }
                if isLast { output.append("") }
            } else {
                output.append(segment)
            }
        }
        return (absolute ? "/" : "") + output.joined(separator: "/")
    }

    private static func isDot(_ segment: Substring) -> Bool {
        segment == "." || segment.lowercased() == "%2e"
    }

    private static func isDoubleDot(_ segment: Substring) -> Bool {
        switch segment.lowercased() {
        case "..", ".%2e", "%2e.", "%2e%2e": true
        default: false
        }
    }
}

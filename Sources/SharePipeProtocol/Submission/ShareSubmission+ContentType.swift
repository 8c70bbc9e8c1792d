extension ShareSubmission {
    /// The media type of a share submission: `application/json`.
    public static let mediaType = "application/json"

    /// Whether a request's `Content-Type` is one a share submission may be sent as:
    /// `application/json` in any letter case, with no `charset` or `charset=utf-8` (quoted or
    /// not, `utf8` too); other parameters are ignored. A missing header is not accepted.
    /// Answer ``ProblemDetails/unsupportedMediaType(received:expected:)`` (415) when `false`.
    /// - Parameter contentType: The `Content-Type` header value, or `nil` when there was none.
    public static func acceptsContentType(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        var parts = contentType.split(separator: ";", omittingEmptySubsequences: false).makeIterator()
        guard let essence = parts.next(), trimmed(essence).lowercased() == mediaType else { return false }
        while let parameter = parts.next() {
            let pair = parameter.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard pair.count == 2, trimmed(pair[0]).lowercased() == "charset" else { continue }
            var value = trimmed(pair[1])
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = value.dropFirst().dropLast()
            }
            guard ["utf-8", "utf8"].contains(value.lowercased()) else { return false }
        }
        return true
    }

    private static func trimmed(_ text: Substring) -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isSpace($0) }),
            let last = text.lastIndex(where: { !isSpace($0) })
        else { return "" }
        return text[first...last]
    }
}

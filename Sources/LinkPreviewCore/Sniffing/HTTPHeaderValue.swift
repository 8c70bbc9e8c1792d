/// Splitting an HTTP field value where a quoted string (`"a,b;c"`, with `\"` escapes) stays whole.
package enum HTTPHeaderValue {
    /// `value` split at each `separator` outside a quoted string: `,` between the values of a
    /// field (“get, decode, and split”), `;` between a media type and its parameters.
    package static func split(_ value: Substring, at separator: Character) -> [Substring] {
        var parts: [Substring] = []
        var start = value.startIndex
        var inQuotes = false
        var escaped = false
        for index in value.indices {
            let character = value[index]
            if escaped {
                escaped = false
            } else if inQuotes && character == "\\" {
                escaped = true
            } else if character == "\"" {
                inQuotes.toggle()
            } else if character == separator && !inQuotes {
                parts.append(value[start..<index])
                start = value.index(after: index)
            }
        }
        parts.append(value[start...])
        return parts
    }
}

/// Cleans an author as pages write it: a name, never a profile URL or a handle's URL.
enum AuthorName {
    /// The cleaned name (`"By Jane Doe"` → `"Jane Doe"`), or nil when `value` is a URL or empty.
    static func clean(_ value: String, maxLength: Int) -> String? {
        guard var name = TextNormalizer.clean(value, maxLength: maxLength) else { return nil }
        let lowered = name.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") || lowered.hasPrefix("www.")
            || lowered.hasPrefix("//")
        {
            return nil
        }
        for prefix in ["by ", "by: ", "von ", "par "] where lowered.hasPrefix(prefix) {
            let rest = name.dropFirst(prefix.count)
            // "Von" and "Par" begin names too ("Von Diaz"): as a byline's "by" they come before a
            // whole name, of two words or more ("Von Max Mustermann").
            if prefix == "von " || prefix == "par ", !rest.contains(" ") { break }
            name = String(rest)
            break
        }
        if name.hasPrefix("@") { name = String(name.dropFirst()) }  // a handle (`twitter:creator`)
        return name.isEmpty ? nil : name
    }
}

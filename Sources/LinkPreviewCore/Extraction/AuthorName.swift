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
            name = String(name.dropFirst(prefix.count))
            break
        }
        if name.hasPrefix("@") { name = String(name.dropFirst()) }  // a handle (`twitter:creator`)
        return name.isEmpty ? nil : name
    }
}

/// Normalises a language as pages write it (`en_US`, `EN-us`, ` fr `) to a BCP 47 tag (`en-US`).
enum LanguageTag {
    /// The normalised tag, or nil when `value` is not a plausible language tag.
    static func normalize(_ value: String?) -> String? {
        guard let value else { return nil }
        let parts = value.trimmingASCIIWhitespace().split(whereSeparator: { $0 == "-" || $0 == "_" })
        guard let primary = parts.first, (2...3).contains(primary.count),
            primary.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return nil }
        var result = primary.lowercased()
        for part in parts.dropFirst() {
            guard (1...8).contains(part.count), part.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
            else { break }
            if part.count == 2 && part.allSatisfy(\.isLetter) {
                result += "-" + part.uppercased()
            } else if part.count == 4 && part.allSatisfy(\.isLetter) {
                result += "-" + part.prefix(1).uppercased() + part.dropFirst().lowercased()
            } else {
                result += "-" + part.lowercased()
            }
        }
        return result
    }
}

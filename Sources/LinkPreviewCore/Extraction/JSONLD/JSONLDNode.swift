import Foundation

/// A JSON-LD node object (a JSON object with `@type`, `@id` and properties), with the lenient
/// property access real pages need.
struct JSONLDNode {
    /// The object's properties as parsed.
    let properties: JSONObject

    /// The node for a parsed value, when it is a JSON object.
    init?(_ value: JSONValue?) {
        guard let properties = value?.object else { return nil }
        self.properties = properties
    }

    /// The value of a property; when the exact key is absent, a key differing only in case
    /// (`Headline`, `mainEntityofPage`).
    subscript(_ key: String) -> JSONValue? {
        properties.value(forKeyIgnoringCase: key)
    }

    /// `@id` (or a bare `id`), when it is a string.
    var id: String? {
        (properties["@id"] ?? properties["id"])?.string
    }

    /// Whether the node is only a reference to another node: `{"@id": "…"}`, perhaps with a `@type`.
    var isReference: Bool {
        id != nil
            && properties.members.allSatisfy { member in
                ["@id", "id", "@type"].contains { member.compareKey(with: $0) == .equal }
            }
    }

    /// The `@type` names without a vocabulary prefix (`schema:NewsArticle` and
    /// `https://schema.org/NewsArticle` both give `NewsArticle`).
    var types: [String] {
        guard let value = properties["@type"] ?? properties["type"] else { return [] }
        if let name = value.string { return Self.shortTypeName(name).map { [$0] } ?? [] }
        return value.elements.compactMap { $0.string.flatMap(Self.shortTypeName) }
    }

    /// The last non-empty part of a type name split at `/`, `:` and `#`.
    private static func shortTypeName(_ name: String) -> String? {
        let range = name.withUTF8Bytes { bytes -> Range<Int>?? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return .some(nil) }
            func isSeparator(_ byte: UInt8) -> Bool {
                byte == UInt8(ascii: "/") || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "#")
            }
            guard let last = bytes.lastIndex(where: { !isSeparator($0) }) else { return nil }
            let start = bytes[..<last].lastIndex(where: isSeparator).map { $0 + 1 } ?? 0
            return start..<last + 1
        }
        switch range {
        case nil:
            return nil
        case .some(nil):
            // A separator followed by a combining mark is one character, not a separator: split characters.
            return name.split(whereSeparator: { $0 == "/" || $0 == ":" || $0 == "#" }).last.map(String.init)
        case .some(let range?):
            let utf8 = name.utf8
            guard range != 0..<utf8.count else { return name }
            let start = utf8.index(utf8.startIndex, offsetBy: range.lowerBound)
            return String(name[start..<utf8.index(start, offsetBy: range.count)])
        }
    }

    /// The strings a property holds: a string, an array of strings, or JSON-LD value objects
    /// (`{"@value": "…"}`), in order; other values are skipped.
    func strings(_ key: String) -> [String] {
        Self.strings(in: self[key])
    }

    /// The first non-blank string a property holds, cleaned with ``JSONLDText/clean(_:)``.
    func text(_ key: String) -> String? {
        let value = self[key]
        if let string = value?.string { return JSONLDText.clean(string) }
        for string in Self.strings(in: value) {
            if let text = JSONLDText.clean(string) { return text }
        }
        return nil
    }

    /// The objects a property holds: an object or an array of objects (a nested array is read one
    /// level deep), in order.
    func nodes(_ key: String) -> [JSONLDNode] {
        Self.items(in: self[key]).compactMap(JSONLDNode.init)
    }

    /// A positive size in pixels: a number, or a string such as `"1200"` or `"1200px"`.
    func pixels(_ key: String) -> Int? {
        let value = self[key]
        let number: Double?
        if let string = value?.string {
            number = Self.pixelNumber(string)
        } else if let node = JSONLDNode(value) {
            number = node["value"].flatMap { $0.doubleValue ?? $0.string.flatMap(Double.init) }
        } else {
            number = value?.doubleValue
        }
        guard let number, number.isFinite, number >= 1, number < 1_000_000 else { return nil }
        return Int(number)
    }

    /// The number in a size string: blanks (spaces, tabs and other `Zs` characters) trimmed from
    /// both ends, then every `px` removed. ASCII strings, nearly all, are read without Foundation.
    static func pixelNumber(_ string: String) -> Double? {
        guard string.utf8.allSatisfy({ $0 < 0x80 }) else {
            return Double(string.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "px", with: ""))
        }
        // In ASCII, the blanks `.whitespaces` holds are the space and the tab.
        let isBlank = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        let bytes = Array(string.utf8)
        guard let first = bytes.firstIndex(where: { !isBlank($0) }), let last = bytes.lastIndex(where: { !isBlank($0) })
        else { return nil }
        return Double(String(decoding: bytes[first...last], as: UTF8.self).utf8Components(separatedBy: "px").joined())
    }

    /// The elements of an array value (flattening one nested array), or the value itself.
    static func items(in value: JSONValue?) -> [JSONValue] {
        guard let value else { return [] }
        guard value.isArray else { return [value] }
        var items: [JSONValue] = []
        for element in value.elements {
            if element.isArray {
                items.append(contentsOf: element.elements)
            } else {
                items.append(element)
            }
        }
        return items
    }

    /// The strings in a value: see ``strings(_:)``.
    static func strings(in value: JSONValue?) -> [String] {
        guard let value else { return [] }
        if let string = value.string { return [string] }
        guard value.isArray else { return [value.object?["@value"]?.string].compactMap { $0 } }
        return items(in: value).compactMap { item in
            item.string ?? item.object?["@value"]?.string
        }
    }
}

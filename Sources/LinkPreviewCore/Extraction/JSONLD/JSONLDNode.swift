import Foundation

/// A JSON-LD node object (a JSON object with `@type`, `@id` and properties), as parsed by
/// `JSONSerialization`, with the lenient property access real pages need.
struct JSONLDNode {
    /// The object's properties as parsed.
    let properties: [String: Any]

    /// The node for a parsed value, when it is a JSON object.
    init?(_ value: Any?) {
        guard let properties = value as? [String: Any] else { return nil }
        self.properties = properties
    }

    /// The value of a property; when the exact key is absent, a key differing only in case
    /// (`Headline`, `mainEntityofPage`).
    subscript(_ key: String) -> Any? {
        if let value = properties[key] { return value }
        let folded = key.lowercased()
        return properties.first { $0.key.lowercased() == folded }?.value
    }

    /// `@id` (or a bare `id`), when it is a string.
    var id: String? {
        (properties["@id"] ?? properties["id"]) as? String
    }

    /// Whether the node is only a reference to another node: `{"@id": "…"}`, perhaps with a `@type`.
    var isReference: Bool {
        id != nil && properties.keys.allSatisfy { $0 == "@id" || $0 == "id" || $0 == "@type" }
    }

    /// The `@type` names without a vocabulary prefix (`schema:NewsArticle` and
    /// `https://schema.org/NewsArticle` both give `NewsArticle`).
    var types: [String] {
        let value = properties["@type"] ?? properties["type"]
        let names = (value as? [Any] ?? [value as Any]).compactMap { $0 as? String }
        return names.compactMap { name in
            let short = name.split(whereSeparator: { $0 == "/" || $0 == ":" || $0 == "#" }).last.map(String.init)
            return short.flatMap { $0.isEmpty ? nil : $0 }
        }
    }

    /// The strings a property holds: a string, an array of strings, or JSON-LD value objects
    /// (`{"@value": "…"}`), in order; other values are skipped.
    func strings(_ key: String) -> [String] {
        Self.strings(in: self[key])
    }

    /// The first non-blank string a property holds, cleaned with ``JSONLDText/clean(_:)``.
    func text(_ key: String) -> String? {
        for string in strings(key) {
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
        if let string = value as? String {
            number = Double(string.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "px", with: ""))
        } else if let node = JSONLDNode(value) {
            number = node["value"].flatMap { $0 as? Double ?? ($0 as? String).flatMap(Double.init) }
        } else {
            number = value as? Double
        }
        guard let number, number.isFinite, number >= 1, number < 1_000_000 else { return nil }
        return Int(number)
    }

    /// The elements of an array value (flattening one nested array), or the value itself.
    static func items(in value: Any?) -> [Any] {
        guard let value else { return [] }
        guard let array = value as? [Any] else { return [value] }
        return array.flatMap { $0 as? [Any] ?? [$0] }
    }

    /// The strings in a value: see ``strings(_:)``.
    static func strings(in value: Any?) -> [String] {
        items(in: value).compactMap { item in
            if let string = item as? String { return string }
            return JSONLDNode(item)?.properties["@value"] as? String
        }
    }
}

/// A start or end tag as the tokenizer produced it: a lowercased name and attributes in source order
/// (duplicates dropped, as the specification says).
///
/// Names and values are stored as UTF-8 bytes and only become `String`s when asked for, so looking at
/// a tag you do not care about costs nothing.
///
/// ```swift
/// if tag.hasName("meta"), let property = tag.value(of: "property") { … }
/// ```
public struct HTMLTag: Sendable {
    /// One attribute's position in ``storage``: the name is `nameStart..<nameEnd`, the value follows it
    /// up to `valueEnd`.
    struct AttributeRange: Sendable {
        var nameStart: Int
        var nameEnd: Int
        var valueEnd: Int
    }

    /// Whether it is an end tag (`</p>`).
    public internal(set) var isEndTag = false
    /// Whether the tag ended with `/>`.
    public internal(set) var isSelfClosing = false
    /// The lowercased tag name, UTF-8.
    var nameBytes = ReusableArray<UInt8>()
    /// Attribute names and values, back to back.
    var storage = ReusableArray<UInt8>()
    var ranges = ReusableArray<AttributeRange>()

    /// The tag name, lowercased.
    public var name: String { String(decoding: nameBytes.elements, as: UTF8.self) }

    /// The number of attributes.
    public var attributeCount: Int { ranges.count }

    /// The attributes in source order, lowercased names.
    public var attributes: [(name: String, value: String)] {
        ranges.elements.map { range in
            (
                String(decoding: storage[range.nameStart..<range.nameEnd], as: UTF8.self),
                String(decoding: storage[range.nameEnd..<range.valueEnd], as: UTF8.self)
            )
        }
    }

    /// Whether the tag's name is `name` (give it lowercase).
    public func hasName(_ name: StaticString) -> Bool {
        name.withUTF8Buffer { wanted in
            wanted.count == nameBytes.count
                && nameBytes.withUnsafeBufferPointer { ByteSearch.equal($0, 0, wanted, 0, count: wanted.count) }
        }
    }

    /// The value of the attribute `name` (give it lowercase), or nil when the tag has none.
    public func value(of name: StaticString) -> String? {
        guard let range = find(name) else { return nil }
        return String(decoding: storage[range.nameEnd..<range.valueEnd], as: UTF8.self)
    }

    /// Whether the tag has an attribute `name` (give it lowercase).
    public func hasAttribute(_ name: StaticString) -> Bool {
        find(name) != nil
    }

    /// Calls `body` with the raw UTF-8 value of attribute `name`, or returns nil without calling it.
    public func withValue<R>(of name: StaticString, _ body: (ArraySlice<UInt8>) throws -> R) rethrows -> R? {
        guard let range = find(name) else { return nil }
        return try body(storage[range.nameEnd..<range.valueEnd])
    }

    private func find(_ name: StaticString) -> AttributeRange? {
        name.withUTF8Buffer { wanted in
            storage.withUnsafeBufferPointer { bytes in
                for range in ranges.elements where range.nameEnd - range.nameStart == wanted.count {
                    if ByteSearch.equal(bytes, range.nameStart, wanted, 0, count: wanted.count) { return range }
                }
                return nil
            }
        }
    }

    mutating func reset(isEndTag: Bool) {
        self.isEndTag = isEndTag
        isSelfClosing = false
        nameBytes.removeAll()
        ranges.removeAll()
        storage.removeAll()
    }
}

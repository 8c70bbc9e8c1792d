/// A token sink that counts what a document is made of: for measuring the tokenizer alone, or
/// describing a document (`sharepipe bench` uses it). The tokenizer has entry points specialized for
/// it, so counting costs no dynamic dispatch.
///
/// ```swift
/// var tokenizer = HTMLTokenizer()
/// var statistics = HTMLTokenStatistics()
/// tokenizer.feed(bytes, into: &statistics)
/// tokenizer.finish(into: &statistics)
/// print(statistics.startTags, statistics.textBytes)
/// ```
public struct HTMLTokenStatistics: HTMLTokenSink, Sendable, Hashable {
    public private(set) var startTags = 0
    public private(set) var endTags = 0
    public private(set) var attributes = 0
    public private(set) var comments = 0
    public private(set) var doctypes = 0
    /// Bytes of character data (UTF-8).
    public private(set) var textBytes = 0

    /// Creates empty statistics.
    public init() {}

    /// Every token counted.
    public var tokens: Int { startTags + endTags + comments + doctypes }

    public mutating func characters(_ text: UnsafeBufferPointer<UInt8>) { textBytes &+= text.count }
    public mutating func startTag(_ tag: HTMLTag) {
        startTags &+= 1
        attributes &+= tag.attributeCount
    }
    public mutating func endTag(_ tag: HTMLTag) { endTags &+= 1 }
    public mutating func comment(_ text: UnsafeBufferPointer<UInt8>) { comments &+= 1 }
    public mutating func doctype(_ doctype: HTMLDoctype) { doctypes &+= 1 }
}

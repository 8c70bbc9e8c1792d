/// Receives the tokens an ``HTMLTokenizer`` produces, in document order.
///
/// Text arrives as UTF-8 byte runs that borrow the tokenizer's input: copy what you keep. One text
/// node may arrive in several calls (around character references and chunk boundaries). Every
/// method has a default that ignores the token, so a sink implements only what it needs.
///
/// ```swift
/// struct TitleSink: HTMLTokenSink {
///     var inTitle = false
///     var title: [UInt8] = []
///     mutating func startTag(_ tag: HTMLTag) { inTitle = tag.hasName("title") }
///     mutating func endTag(_ tag: HTMLTag) { inTitle = false }
///     mutating func characters(_ text: UnsafeBufferPointer<UInt8>) { if inTitle { title += text } }
/// }
/// ```
public protocol HTMLTokenSink {
    /// A run of character data, UTF-8.
    mutating func characters(_ text: UnsafeBufferPointer<UInt8>)
    /// A start tag with its attributes. The tag is only valid during the call.
    mutating func startTag(_ tag: HTMLTag)
    /// An end tag. The tag is only valid during the call.
    mutating func endTag(_ tag: HTMLTag)
    /// A comment's text, UTF-8 (capped by ``HTMLTokenizer/Limits/maxCommentBytes``).
    mutating func comment(_ text: UnsafeBufferPointer<UInt8>)
    /// A DOCTYPE.
    mutating func doctype(_ doctype: HTMLDoctype)
    /// Whether the sink has all it wants: when true the tokenizer stops at the next token boundary and
    /// ignores further input.
    var isFinished: Bool { get }
    /// Whether the start tag just given to ``startTag(_:)`` may switch the tokenizer's content model,
    /// as the tree builder switches it for HTML elements (`<title>` → RCDATA, `<style>` → RAWTEXT…;
    /// see ``HTMLTokenizer/switchesContentModel``). A sink that follows inline SVG and MathML answers
    /// false for their elements, which the tree builder never switches for: `<svg><style/>` is an
    /// empty SVG element, not the start of raw text that would swallow the rest of the page.
    var startTagSwitchesContentModel: Bool { get }
}

extension HTMLTokenSink {
    public mutating func characters(_ text: UnsafeBufferPointer<UInt8>) {}
    public mutating func startTag(_ tag: HTMLTag) {}
    public mutating func endTag(_ tag: HTMLTag) {}
    public mutating func comment(_ text: UnsafeBufferPointer<UInt8>) {}
    public mutating func doctype(_ doctype: HTMLDoctype) {}
    public var isFinished: Bool { false }
    public var startTagSwitchesContentModel: Bool { true }
}

extension ObservationCollector {
    /// One open element that changes how the tags inside it are read: an inline `<svg>` or `<math>`
    /// (foreign content), or an integration point inside one, where HTML is read again.
    struct ForeignFrame {
        var name: [UInt8]
        var isIntegrationPoint: Bool
    }

    /// The most nested ``ForeignFrame``s tracked; deeper ones are not (a page nesting inline SVG this
    /// deep is not one whose metadata is inside it).
    static let maxForeignDepth = 256

    /// Whether the last start tag was an SVG or MathML element, which never switches the tokenizer's
    /// content model (``HTMLTokenSink/startTagSwitchesContentModel``).
    var startTagSwitchesContentModel: Bool { !lastStartTagIsForeign }

    /// Whether the current tag is inside foreign content (and not in an integration point in it).
    var isInForeignContent: Bool { foreignStack.last.map { !$0.isIntegrationPoint } ?? false }

    /// Whether a start tag is read as part of the page, as a browser's tree builder places it:
    ///
    /// - Inside a `<template>`, nothing is: its contents are a fragment a script may clone, not the
    ///   document (a `<title>`, `<meta>` or `<base>` there is not the page's). Foreign content is
    ///   still tracked there, since it decides how the tokenizer reads what follows (an SVG `<style/>`
    ///   starts no raw text, in a template as anywhere).
    /// - Inside inline `<svg>` or `<math>`, elements are SVG or MathML (an SVG `<title>` is an icon's
    ///   label, an SVG `<link>` no link of the page), except the HTML elements that break out of foreign
    ///   content (`<p>`, `<div>`, `<meta>`, `<img>`… — ``breaksOutOfForeignContent(_:)``): the parser
    ///   closes the open `<svg>` or `<math>` there, so one left unclosed does not hide the rest of the
    ///   page.
    /// - Inside an integration point (SVG `<foreignObject>`, `<desc>`, `<title>`; MathML `<mi>`, `<mo>`,
    ///   `<mn>`, `<ms>`, `<mtext>`, an HTML `<annotation-xml>`), HTML is read again, and nothing there
    ///   breaks out of the `<svg>` or `<math>` around it.
    mutating func admits(_ tag: HTMLTag) -> Bool {
        lastStartTagIsForeign = false
        if isInForeignContent {
            guard Self.breaksOutOfForeignContent(tag) else {
                lastStartTagIsForeign = true
                if !tag.isSelfClosing {
                    if Self.isIntegrationPoint(tag) {
                        push(tag, integrationPoint: true)
                    } else if tag.hasName("svg") || tag.hasName("math") {
                        push(tag, integrationPoint: false)
                    }
                }
                return false
            }
            popForeignContent()
        }
        if (tag.hasName("svg") || tag.hasName("math")) && !tag.isSelfClosing { push(tag, integrationPoint: false) }
        if tag.hasName("template") {
            templateStarts.append(foreignStack.count)
            return false
        }
        return templateStarts.isEmpty
    }

    /// ``admits(_:)`` for end tags: `</template>` closes its template and any foreign content opened
    /// in it, an integration point's end, `</svg>` and `</math>` close what they opened, and a `</p>`
    /// or `</br>` in foreign content breaks out of it as the parser does.
    mutating func admitsEnd(_ tag: HTMLTag) -> Bool {
        let floor = templateStarts.last ?? 0
        if foreignStack.count > floor, let top = foreignStack.last {
            if top.isIntegrationPoint {
                if tag.nameBytes.elementsEqual(top.name) {
                    foreignStack.removeLast()
                    return false
                }
            } else if tag.hasName("p") || tag.hasName("br") {
                popForeignContent()
            } else if !(tag.hasName("template") && !templateStarts.isEmpty) {
                if tag.nameBytes.elementsEqual(top.name) { foreignStack.removeLast() }
                return false
            }
        }
        if tag.hasName("template"), let start = templateStarts.popLast() {
            if start < foreignStack.count { foreignStack.removeSubrange(start...) }
            return false
        }
        return templateStarts.isEmpty
    }

    private mutating func push(_ tag: HTMLTag, integrationPoint: Bool) {
        guard foreignStack.count < Self.maxForeignDepth else { return }
        foreignStack.append(ForeignFrame(name: Array(tag.nameBytes.elements), isIntegrationPoint: integrationPoint))
    }

    /// Closes foreign content back to HTML: to the integration point it sits in, or to the template or
    /// top level it was opened in.
    private mutating func popForeignContent() {
        let floor = templateStarts.last ?? 0
        while foreignStack.count > floor, let top = foreignStack.last, !top.isIntegrationPoint {
            foreignStack.removeLast()
        }
    }

    /// The start tags that end foreign content (WHATWG HTML, "the rules for parsing tokens in foreign
    /// content"): `<font>` only with a `color`, `face` or `size` attribute.
    static func breaksOutOfForeignContent(_ tag: HTMLTag) -> Bool {
        if tag.hasName("font") {
            return tag.hasAttribute("color") || tag.hasAttribute("face") || tag.hasAttribute("size")
        }
        return foreignContentBreakers.contains { tag.hasName($0) }
    }

    private static let foreignContentBreakers: [StaticString] = [
        "b", "big", "blockquote", "body", "br", "center", "code", "dd", "div", "dl", "dt", "em", "embed", "h1", "h2",
        "h3", "h4", "h5", "h6", "head", "hr", "i", "img", "li", "listing", "menu", "meta", "nobr", "ol", "p", "pre",
        "ruby", "s", "small", "span", "strong", "strike", "sub", "sup", "table", "tt", "u", "ul", "var",
    ]

    /// SVG's HTML integration points, MathML's text integration points, and an `<annotation-xml>`
    /// whose `encoding` is HTML (names as the tokenizer gives them, lowercased).
    static func isIntegrationPoint(_ tag: HTMLTag) -> Bool {
        if tag.hasName("annotation-xml") {
            return tag.withValue(of: "encoding") {
                ByteMatching.equalsIgnoringCase($0, "text/html")
                    || ByteMatching.equalsIgnoringCase($0, "application/xhtml+xml")
            } == true
        }
        return integrationPoints.contains { tag.hasName($0) }
    }

    private static let integrationPoints: [StaticString] = [
        "foreignobject", "desc", "title", "mi", "mo", "mn", "ms", "mtext",
    ]
}

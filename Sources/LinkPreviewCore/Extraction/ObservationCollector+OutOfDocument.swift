extension ObservationCollector {
    /// Whether a start tag is read as part of the page, as a browser's tree builder places it:
    ///
    /// - Inside a `<template>`, nothing is: its contents are a fragment a script may clone, not the
    ///   document (a `<title>`, `<meta>` or `<base>` there is not the page's).
    /// - Inside inline `<svg>` or `<math>`, elements are SVG or MathML (an SVG `<title>` is an icon's
    ///   label, an SVG `<link>` no link of the page), except the HTML elements that break out of foreign
    ///   content (`<p>`, `<div>`, `<meta>`, `<img>`… — ``breaksOutOfForeignContent(_:)``): the parser
    ///   closes the open `<svg>` or `<math>` there, so one left unclosed does not hide the rest of the
    ///   page.
    ///
    /// Counting is by name, without a tree: HTML inside an SVG `<foreignObject>` is not told apart.
    mutating func admits(_ tag: HTMLTag) -> Bool {
        if templateDepth > 0 {
            if tag.hasName("template") { templateDepth += 1 }
            return false
        }
        guard foreignDepth > 0 else { return true }
        if Self.breaksOutOfForeignContent(tag) {
            foreignDepth = 0
            return true
        }
        if (tag.hasName("svg") || tag.hasName("math")) && !tag.isSelfClosing { foreignDepth += 1 }
        return false
    }

    /// ``admits(_:)`` for end tags: `</template>`, `</svg>` and `</math>` close what they opened, and a
    /// `</p>` or `</br>` breaks out of foreign content as the parser does.
    mutating func admitsEnd(_ tag: HTMLTag) -> Bool {
        if templateDepth > 0 {
            if tag.hasName("template") { templateDepth -= 1 }
            return false
        }
        guard foreignDepth > 0 else { return true }
        if tag.hasName("p") || tag.hasName("br") {
            foreignDepth = 0
            return true
        }
        if tag.hasName("svg") || tag.hasName("math") { foreignDepth -= 1 }
        return false
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
}

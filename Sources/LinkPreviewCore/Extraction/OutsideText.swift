/// Text that completes a page's metadata from outside the page (an oEmbed response, a web-app
/// manifest), cleaned by the rules the page's own text follows: whitespace collapsed, control
/// characters dropped, and cut to ``ExtractionLimits``' lengths, so that no source can put a
/// terminal escape or 100 000 characters into a title.
package enum OutsideText {
    /// A title: at most ``ExtractionLimits/maxTitleLength`` characters.
    package static func title(_ text: String?, limits: ExtractionLimits = ExtractionLimits()) -> String? {
        TextNormalizer.clean(text, maxLength: limits.maxTitleLength)
    }

    /// A site name or another short field: at most ``ExtractionLimits/maxFieldLength`` characters.
    package static func field(_ text: String?, limits: ExtractionLimits = ExtractionLimits()) -> String? {
        TextNormalizer.clean(text, maxLength: limits.maxFieldLength)
    }

    /// An author's name, as the page's are read (`"By Jane Doe"` → `"Jane Doe"`, never a URL).
    package static func author(_ text: String?, limits: ExtractionLimits = ExtractionLimits()) -> String? {
        text.flatMap { AuthorName.clean($0, maxLength: limits.maxFieldLength) }
    }
}

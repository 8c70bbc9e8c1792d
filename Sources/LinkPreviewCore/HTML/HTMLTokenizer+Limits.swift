extension HTMLTokenizer {
    /// Bounds on what one token may hold, so memory stays flat whatever the input.
    ///
    /// Input past a limit is read (the state machine still follows it) but not kept: a tag keeps its
    /// first ``maxAttributesPerTag`` attributes, a value its first ``maxAttributeValueBytes`` bytes.
    public struct Limits: Sendable, Hashable {
        /// Bytes kept of a tag name. Default 256.
        public var maxTagNameBytes: Int
        /// Attributes kept per tag; later ones are dropped. Default 256.
        public var maxAttributesPerTag: Int
        /// Bytes kept of an attribute name. Default 1 024.
        public var maxAttributeNameBytes: Int
        /// Bytes kept of an attribute value. Default 64 KiB.
        public var maxAttributeValueBytes: Int
        /// Bytes kept of a comment. Default 64 KiB.
        public var maxCommentBytes: Int
        /// Bytes kept of each DOCTYPE field. Default 1 024.
        public var maxDoctypeFieldBytes: Int

        /// Creates limits; every default is stated on its property.
        public init(
            maxTagNameBytes: Int = 256,
            maxAttributesPerTag: Int = 256,
            maxAttributeNameBytes: Int = 1024,
            maxAttributeValueBytes: Int = 64 * 1024,
            maxCommentBytes: Int = 64 * 1024,
            maxDoctypeFieldBytes: Int = 1024
        ) {
            self.maxTagNameBytes = maxTagNameBytes
            self.maxAttributesPerTag = maxAttributesPerTag
            self.maxAttributeNameBytes = maxAttributeNameBytes
            self.maxAttributeValueBytes = maxAttributeValueBytes
            self.maxCommentBytes = maxCommentBytes
            self.maxDoctypeFieldBytes = maxDoctypeFieldBytes
        }

        /// The default limits.
        public static let `default` = Limits()

        /// No practical limit (`Int.max` everywhere): for conformance tests on trusted input.
        public static let unlimited = Limits(
            maxTagNameBytes: .max,
            maxAttributesPerTag: .max,
            maxAttributeNameBytes: .max,
            maxAttributeValueBytes: .max,
            maxCommentBytes: .max,
            maxDoctypeFieldBytes: .max
        )
    }
}

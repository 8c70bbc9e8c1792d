extension ShareSubmission {
    /// The body of `POST /v1/shares` as written: each member as sent, before it is checked.
    ///
    /// A client writes one (absent members are left out); the server reads the bytes into one, member
    /// by member so that every member of the wrong JSON type is reported, and checks it into a
    /// ``ShareSubmission`` (``decode(_:limits:)``).
    ///
    /// ```swift
    /// var body = ShareSubmission.Body(url: "https://example.com/a", note: "for Friday")
    /// body.recipients = ["@ada"]
    /// let bytes = try APIJSON.encoder().encode(body)
    /// // {"note":"for Friday","recipients":["@ada"],"url":"https://example.com/a"}
    /// ```
    public struct Body: Sendable, Hashable, Codable {
        /// The `provided` member: what the sharing app knows about the page.
        public struct Provided: Sendable, Hashable, Codable {
            /// The page's title.
            public var title: String?
            /// A summary of the page.
            public var summary: String?
            /// An http(s) URL of the site's icon.
            public var iconURL: String?
            /// An http(s) URL of an image representing the page.
            public var imageURL: String?
            /// The site's name.
            public var siteName: String?

            /// Creates the member; every field defaults to absent.
            public init(
                title: String? = nil,
                summary: String? = nil,
                iconURL: String? = nil,
                imageURL: String? = nil,
                siteName: String? = nil
            ) {
                self.title = title
                self.summary = summary
                self.iconURL = iconURL
                self.imageURL = imageURL
                self.siteName = siteName
            }

            /// Whether no field is there.
            public var isEmpty: Bool {
                title == nil && summary == nil && iconURL == nil && imageURL == nil && siteName == nil
            }
        }

        /// One of the `attachments` member's objects.
        public struct Attachment: Sendable, Hashable, Codable {
            /// The SHA-256 of one of the sharer's complete uploads.
            public var sha256: String?
            /// The name to show; the upload's when absent.
            public var name: String?

            public init(sha256: String? = nil, name: String? = nil) {
                self.sha256 = sha256
                self.name = name
            }
        }

        /// The link shared; send it or ``text``, not both, or neither for files alone.
        public var url: String?
        /// Free text holding the link.
        public var text: String?
        /// What the sharer says about it.
        public var note: String?
        /// What the sharing app knows about the page.
        public var provided: Provided?
        /// Who receives it: `@handle` or `conversation:<UUID>` each (``ShareRecipient``).
        public var recipients: [String]?
        /// Files that go with it: the sharer's complete uploads (``UploadRequest``).
        public var attachments: [Attachment]?

        /// Creates a body; every member defaults to absent.
        public init(
            url: String? = nil,
            text: String? = nil,
            note: String? = nil,
            provided: Provided? = nil,
            recipients: [String]? = nil,
            attachments: [Attachment]? = nil
        ) {
            self.url = url
            self.text = text
            self.note = note
            self.provided = provided
            self.recipients = recipients
            self.attachments = attachments
        }
    }
}

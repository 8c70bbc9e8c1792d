/// A DOCTYPE token.
public struct HTMLDoctype: Sendable, Hashable {
    /// The name, lowercased (`html`), or nil when missing.
    public var name: String?
    /// The public identifier, or nil when missing.
    public var publicIdentifier: String?
    /// The system identifier, or nil when missing.
    public var systemIdentifier: String?
    /// Whether the DOCTYPE forces quirks mode (it was malformed or cut short).
    public var forceQuirks: Bool

    /// Creates a DOCTYPE token.
    public init(
        name: String? = nil,
        publicIdentifier: String? = nil,
        systemIdentifier: String? = nil,
        forceQuirks: Bool = false
    ) {
        self.name = name
        self.publicIdentifier = publicIdentifier
        self.systemIdentifier = systemIdentifier
        self.forceQuirks = forceQuirks
    }
}

/// The DOCTYPE under construction, as bytes.
struct DoctypeBuilder {
    var name: [UInt8]? = nil
    var publicIdentifier: [UInt8]? = nil
    var systemIdentifier: [UInt8]? = nil
    var forceQuirks = false

    var token: HTMLDoctype {
        HTMLDoctype(
            name: name.map { String(decoding: $0, as: UTF8.self) },
            publicIdentifier: publicIdentifier.map { String(decoding: $0, as: UTF8.self) },
            systemIdentifier: systemIdentifier.map { String(decoding: $0, as: UTF8.self) },
            forceQuirks: forceQuirks
        )
    }
}

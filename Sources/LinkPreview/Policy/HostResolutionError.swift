/// A host name could not be resolved.
public struct HostResolutionError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure; compare with the static values (`error.code == .notFound`).
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private let name: String

        /// The name does not exist, or has no address (`EAI_NONAME`, `EAI_NODATA`).
        public static let notFound = Code(name: "notFound")
        /// The DNS server did not answer in time or answered with a temporary failure (`EAI_AGAIN`); retrying
        /// later may succeed.
        public static let temporaryFailure = Code(name: "temporaryFailure")
        /// Any other failure (`EAI_FAIL`, `EAI_MEMORY`, `EAI_SYSTEM`…).
        public static let failure = Code(name: "failure")

        /// The code's name, e.g. `notFound`.
        public var description: String { name }
    }

    /// The kind of failure.
    public var code: Code
    /// The name that was looked up.
    public var host: String
    /// The resolver's own message, e.g. `Name or service not known` (`gai_strerror`).
    public var message: String
    /// The `getaddrinfo` error number, when the failure came from it.
    public var systemCode: Int32?

    /// Creates an error.
    public init(code: Code, host: String, message: String, systemCode: Int32? = nil) {
        self.code = code
        self.host = host
        self.message = message
        self.systemCode = systemCode
    }

    /// What went wrong and what to do, e.g. `Cannot resolve nonexistent.invalid: Name or service not known.
    /// Check the host name in the link.`
    public var description: String {
        let advice =
            code == .temporaryFailure ? "Try again later." : "Check the host name in the link."
        return "Cannot resolve \(host): \(message). \(advice)"
    }
}

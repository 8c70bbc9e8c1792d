/// A setting the server cannot run with: which one (``field``, as the configuration names it, e.g.
/// `limits.maxBodyBytes`) and why, in words that say what would do.
public struct ServerConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The setting, as a path in ``ServerConfiguration`` (`listener.port`).
    public var field: String
    /// What is wrong with its value and what would do, without the setting's name
    /// ("must be between 1 KiB and 16 MiB (got 12)."), so a command line can put its option's name first.
    public var message: String

    public init(field: String, message: String) {
        self.field = field
        self.message = message
    }

    public var description: String { "\(field) \(message)" }
}

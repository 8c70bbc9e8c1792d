/// How a refusal says to allow what it refused, in the words of whatever set the policy: `sharepipe
/// preview` names its `--allow` options, `sharepipe serve` its `--allow-fetch-from` ones, and a
/// program using the library the policy's properties (the default).
public struct AllowanceWording: Sendable, Hashable {
    /// The option that allows a network or host (`--allow`), or `nil` for ``AddressPolicy/allowList``.
    public var networkOption: String?
    /// The option that allows a port (`--allow-port`), or `nil` for ``AddressPolicy/allowedPorts``.
    public var portOption: String?

    /// Creates a wording; `nil` options name the policy's properties.
    public init(networkOption: String? = nil, portOption: String? = nil) {
        self.networkOption = networkOption
        self.portOption = portOption
    }

    /// "Allow it with --allow 10.0.0.0/8", or "Add 10.0.0.0/8 to the address policy's allowList".
    func allow(_ networksOrHosts: String) -> String {
        networkOption.map { "Allow it with \($0) \(networksOrHosts)" }
            ?? "Add \(networksOrHosts) to the address policy's allowList"
    }

    /// "Allow it with --allow-port 8080", or "Add 8080 to the address policy's allowedPorts".
    func allowPort(_ port: Int) -> String {
        portOption.map { "Allow it with \($0) \(port)" } ?? "Add \(port) to the address policy's allowedPorts"
    }
}

import ArgumentParser
import Foundation
import Hummingbird
import LinkPreview
import Logging
import NIOCore
import SharePipeCLISupport
import SharePipeServer

/// `sharepipe serve`: the server, on an embedded SQLite file by default.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run the SharePipe server (SQLite in ./sharepipe.sqlite unless told otherwise).",
        discussion: """
            Stops gracefully on SIGTERM or SIGINT: no new requests, running ones and preview jobs finish.
            Options also read from the environment: SHAREPIPE_HOST, SHAREPIPE_PORT, SHAREPIPE_DATABASE,
            SHAREPIPE_SIGN_UP=off, SHAREPIPE_PUBLIC_URL, SHAREPIPE_TRUSTED_PROXIES.
            First account and device: sharepipe users add ada, then sharepipe devices add ada "Ada's phone".
            """
    )

    @OptionGroup var database: DatabaseOption

    @Option(help: "Address to listen on.")
    var host: String = ProcessInfo.processInfo.environment["SHAREPIPE_HOST"] ?? "127.0.0.1"

    @Option(parsing: .unconditional, help: "Port to listen on (default: SHAREPIPE_PORT, else 8080).")
    var port: Int?

    /// `--port`, else SHAREPIPE_PORT, else 8080; a value out of range (or not a number) is refused
    /// naming where it came from.
    static func port(option: Int?, environment: [String: String]) throws -> Int {
        if let option {
            try OptionRange.check(option, in: 1...65535, option: "--port")
            return option
        }
        guard let text = environment["SHAREPIPE_PORT"] else { return 8080 }
        guard let port = Int(text.trimmingCharacters(in: .whitespaces)), (1...65535).contains(port) else {
            throw ValidationError("SHAREPIPE_PORT must be a port 1–65535 (got “\(text)”).")
        }
        return port
    }

    /// The port to listen on (``port(option:environment:)``); ``validate()`` has checked it.
    var listeningPort: Int {
        (try? Self.port(option: port, environment: ProcessInfo.processInfo.environment)) ?? 8080
    }

    @Option(parsing: .unconditional, help: "Largest request body, in bytes.")
    var maxBodyBytes: Int = 64 << 10

    @Option(parsing: .unconditional, help: "Preview fetches at the same time.")
    var previewWorkers: Int = 8

    @Option(
        parsing: .unconditional,
        help: "/v1/ requests per second per token (bursts of twice as many); 0 for no limit."
    )
    var requestsPerSecondPerToken: Int = 100

    @Option(
        parsing: .unconditional,
        help: "/v1/ requests per second per client address (bursts of twice as many); 0 for no limit."
    )
    var requestsPerSecondPerAddress: Int = 200

    @Flag(
        inversion: .prefixedNo,
        help: "Whether anyone may create an account on the web page (SHAREPIPE_SIGN_UP=off or on)."
    )
    var signUp: Bool = Self.signUp(fromEnvironment: ProcessInfo.processInfo.environment) ?? true

    /// SHAREPIPE_SIGN_UP read as a switch: `off`, `false`, `no`, `0` turn sign-up off; `on`, `true`,
    /// `yes`, `1` leave it on; `nil` without the variable, and for anything else, which ``validate()``
    /// refuses rather than read as on (a security switch must not fail open).
    static func signUp(fromEnvironment environment: [String: String]) -> Bool? {
        guard let value = environment["SHAREPIPE_SIGN_UP"] else { return nil }
        switch value.trimmingCharacters(in: .whitespaces).lowercased() {
        case "off", "false", "no", "0": return false
        case "on", "true", "yes", "1": return true
        default: return nil
        }
    }

    @Option(
        help: """
            The address users reach the server at (https://share.example.com): public pages' URLs start \
            with it, and web forms are taken from its origin only. Default: the listen address \
            (http://127.0.0.1:8080); never the request's Host.
            """
    )
    var publicURL: String?

    /// `--public-url`, else SHAREPIPE_PUBLIC_URL (an optional @Option may not have a default value).
    var publicURLText: String? { publicURL ?? ProcessInfo.processInfo.environment["SHAREPIPE_PUBLIC_URL"] }

    @Flag(help: "Mark cookies Secure: turn on when users reach the server over https (through a TLS proxy).")
    var secureCookies = false

    @Option(help: "A CIDR range or host previews may fetch from even if private (10.0.0.0/8, wiki.corp). Repeatable.")
    var allowFetchFrom: [String] = []

    @Option(
        parsing: .unconditionalSingleValue,
        help: "A port the previews may fetch from besides 80 and 443. Repeatable."
    )
    var allowFetchPort: [Int] = []

    @Option(
        help: """
            A proxy in front of the server (an address or CIDR range) whose X-Forwarded-For names the client \
            for the per-address limits. Repeatable; also SHAREPIPE_TRUSTED_PROXIES, comma-separated.
            """
    )
    var trustedProxy: [String] = []

    /// `--trusted-proxy`, else SHAREPIPE_TRUSTED_PROXIES (comma-separated).
    var trustedProxyTexts: [String] {
        if !trustedProxy.isEmpty { return trustedProxy }
        let listed = ProcessInfo.processInfo.environment["SHAREPIPE_TRUSTED_PROXIES"] ?? ""
        return listed.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Reads what only the command line has (environment variables, option texts), then lets the
    /// server's own checks (``ServerConfiguration/validate()``) refuse what it cannot run with, under
    /// the option's name.
    func validate() throws {
        let environment = ProcessInfo.processInfo.environment
        if let value = environment["SHAREPIPE_SIGN_UP"], Self.signUp(fromEnvironment: environment) == nil {
            throw ValidationError("SHAREPIPE_SIGN_UP must be on or off (got “\(value)”).")
        }
        _ = try Self.port(option: port, environment: environment)
        for rule in allowFetchFrom where AllowRule(rule) == nil {
            throw ValidationError(
                "--allow-fetch-from '\(rule)' is neither a CIDR range (10.0.0.0/8) nor a host name (wiki.corp)."
            )
        }
        let proxySource = trustedProxy.isEmpty ? "SHAREPIPE_TRUSTED_PROXIES" : "--trusted-proxy"
        for proxy in trustedProxyTexts where IPNetwork(proxy) == nil {
            throw ValidationError(
                "\(proxySource) '\(proxy)' is not an address or CIDR range (10.0.0.5, 10.0.0.0/8, fd00::/8)."
            )
        }
        if let publicURL = publicURLText, URL(string: publicURL) == nil {
            let source = self.publicURL == nil ? "SHAREPIPE_PUBLIC_URL" : "--public-url"
            throw ValidationError("\(source) must be an absolute http or https URL (got \(publicURL)).")
        }
        let configuration = try serverConfiguration()
        do {
            try configuration.validate()
        } catch {
            throw ValidationError("\(optionName(of: error.field)) \(error.message)")
        }
    }

    /// The option (or environment variable) that sets a configuration field.
    func optionName(of field: String) -> String {
        let environment = ProcessInfo.processInfo.environment
        switch field {
        case "listener.host": return environment["SHAREPIPE_HOST"] == host ? "SHAREPIPE_HOST" : "--host"
        case "listener.port": return port == nil ? "SHAREPIPE_PORT" : "--port"
        case "listener.publicURL": return publicURL == nil ? "SHAREPIPE_PUBLIC_URL" : "--public-url"
        case "listener.trustedProxies": return trustedProxy.isEmpty ? "SHAREPIPE_TRUSTED_PROXIES" : "--trusted-proxy"
        case "limits.maxBodyBytes": return "--max-body-bytes"
        case "workers.previewWorkers": return "--preview-workers"
        case "limits.requestsPerSecondPerToken": return "--requests-per-second-per-token"
        case "limits.requestsPerSecondPerAddress": return "--requests-per-second-per-address"
        case "workers.preview.policy.addresses.allowedPorts": return "--allow-fetch-port"
        default: return field
        }
    }

    /// The server's configuration from the options (checked by ``validate()``).
    func serverConfiguration() throws -> ServerConfiguration {
        var configuration = ServerConfiguration(
            listener: .init(
                host: host,
                port: listeningPort,
                publicURL: publicURLText.flatMap(URL.init(string:)),
                trustedProxies: trustedProxyTexts.compactMap(IPNetwork.init)
            ),
            database: try database.location(),
            workers: .init(previewWorkers: previewWorkers),
            limits: .init(
                maxBodyBytes: maxBodyBytes,
                requestsPerSecondPerToken: requestsPerSecondPerToken,
                requestsPerSecondPerAddress: requestsPerSecondPerAddress
            ),
            web: .init(allowSignUp: signUp, secureCookies: secureCookies)
        )
        configuration.workers.preview.policy.addresses.allowList = allowFetchFrom.compactMap(AllowRule.init)
        configuration.workers.preview.policy.addresses.allowedPorts.formUnion(allowFetchPort)
        configuration.workers.preview.policy.addresses.allowanceWording = AllowanceWording(
            networkOption: "--allow-fetch-from",
            portOption: "--allow-fetch-port"
        )
        return configuration
    }

    func run() async throws {
        var logger = Logger(label: "sharepipe")
        logger.logLevel = .info
        let port = listeningPort
        let configuration = try serverConfiguration()
        // The SQLite file is checked first, so a folder or a file that is not SQLite is said in words.
        try database.check(configuration.database, need: .existingOrNew)
        let context: ServerContext
        do {
            context = try await ServerContext.start(configuration: configuration, logger: logger)
        } catch {
            throw DatabaseOption.explained(error, location: configuration.database)
        }
        let listener = configuration.listener
        let (host, signUp, database) = (listener.hostInURL, signUp, configuration.database)
        let application = context.application { _ in
            print("SharePipe is listening on http://\(host):\(port)/ with \(database).")
            print("Web page: http://\(host):\(port)/ (sign-up is \(signUp ? "open" : "closed")).")
            print("Health: http://\(host):\(port)/health — post shares to /v1/shares with a device token.")
            if listener.publicURL == nil, listener.reachableHostInURL != host {
                print(
                    "Public pages name http://\(listener.reachableHostInURL):\(port)/: "
                        + "set --public-url to the address users reach this server at."
                )
            }
            fflush(nil)
        }
        do {
            try await application.runService()
        } catch {
            try? await context.close()
            throw Self.explained(error, host: host, port: port)
        }
        try await context.close()
    }
}

extension ServeCommand {
    /// A failure to listen, in words that say what to do; any other error as it is.
    static func explained(_ error: any Error, host: String, port: Int) -> any Error {
        if error is SocketAddressError || error is SocketAddressError.UnknownHost {
            return CLIError(
                "\(host) is not an address or name of this machine: choose another --host (127.0.0.1, 0.0.0.0…)."
            )
        }
        guard let failure = error as? IOError else { return error }
        switch failure.errnoCode {
        case EADDRINUSE:
            return CLIError("Port \(port) on \(host) is in use: stop what listens there, or choose another --port.")
        case EADDRNOTAVAIL:
            return CLIError("\(host) is not an address of this machine: choose another --host (127.0.0.1, 0.0.0.0…).")
        case EACCES:
            return CLIError("Listening on port \(port) needs privileges: choose a --port above 1023.")
        default:
            return CLIError("Cannot listen on \(host):\(port): \(failure).")
        }
    }
}

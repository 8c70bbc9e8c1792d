import Foundation
import NIOSSL
import PostgresNIO

/// A `postgres://` URL read into what the connection pool needs, with libpq's meaning for `sslmode`.
///
/// - `postgres://user:password@host:5432/database`, also `postgresql://`; `postgres+uds:///path/to/.s.PGSQL.5432#database`
///   (or `postgresql+uds`) for a Unix socket.
/// - `schema=NAME`: the tables live in that schema, created if missing.
/// - `pool_size=N`: the most connections the server opens, 1–100 (default 16).
/// - `operation_timeout=SECONDS`: how long one storage operation (waiting for a connection included)
///   may take before its request is answered 503, 1–3600 (default 30).
/// - `sslmode` (also `tlsmode`, `ssl`, `tls`): `disable`; `allow` or `prefer` (the default over TCP: TLS
///   when the server offers it, its certificate not checked, as libpq does); `require` (TLS or no
///   connection, the certificate not checked); `verify-ca` (the certificate must chain to a trusted
///   root); `verify-full` (and name the host). `sslrootcert=PATH` names the roots (a PEM file) instead
///   of the system's. A Unix socket defaults to `disable`.
struct PostgresURL: Sendable {
    enum Endpoint: Sendable, Equatable {
        case tcp(host: String, port: Int)
        case socket(path: String)
    }

    enum TLSMode: String, Sendable, CaseIterable {
        case disable, allow, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    var endpoint: Endpoint
    var username: String
    var password: String?
    var database: String?
    var tlsMode: TLSMode
    var rootCertificates: String?
    var schema: String?
    /// The most connections the pool opens: `pool_size`, 1–100, default 16.
    var poolSize = 16
    /// How long one operation may take: `operation_timeout`, 1–3600 s, default
    /// ``Database/operationDeadline``.
    var operationTimeout = Database.operationDeadline

    /// The schemes of a URL over TCP.
    static let tcpSchemes: Set = ["postgres", "postgresql", "postgres+tcp", "postgresql+tcp"]
    /// The schemes of a URL naming a Unix socket.
    static let socketSchemes: Set = ["postgres+uds", "postgresql+uds"]
    /// Every scheme a PostgreSQL URL may have.
    static var schemes: Set<String> { tcpSchemes.union(socketSchemes) }

    init(_ text: String) throws {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw Self.problem("is not a URL")
        }
        guard let user = components.user, !user.isEmpty else {
            throw Self.problem("names no user (postgres://USER:PASSWORD@HOST:5432/DATABASE)")
        }
        username = user
        password = components.password
        var items: [String: String] = [:]
        for item in components.queryItems ?? [] { items[item.name.lowercased()] = item.value ?? "" }
        switch scheme {
        case _ where Self.tcpSchemes.contains(scheme):
            guard let host = components.host, !host.isEmpty else {
                throw Self.problem("names no host (postgres://USER:PASSWORD@HOST:5432/DATABASE)")
            }
            endpoint = .tcp(host: host, port: components.port ?? 5432)
            let path = components.path.drop { $0 == "/" }
            database = path.isEmpty ? nil : String(path)
        case _ where Self.socketSchemes.contains(scheme):
            guard components.host?.isEmpty ?? true, components.port == nil, components.path.count > 1 else {
                throw Self.problem("names no socket (postgres+uds:///run/postgresql/.s.PGSQL.5432#DATABASE)")
            }
            endpoint = .socket(path: components.path)
            database = components.fragment
        default:
            throw Self.problem("is not a postgres:// URL")
        }
        schema = items["schema"]
        if let schema {
            guard !schema.isEmpty, schema.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") })
            else { throw StorageError.invalid("The schema name '\(schema)' may hold only letters, digits and _.") }
        }
        let modeText = ["sslmode", "tlsmode", "ssl", "tls"].lazy.compactMap { items[$0] }.first
        switch modeText?.lowercased() {
        case nil: tlsMode = Self.defaultMode(for: endpoint)
        case "true": tlsMode = .prefer
        case "false": tlsMode = .disable
        case .some(let text):
            guard let mode = TLSMode(rawValue: text) else {
                let modes = TLSMode.allCases.map(\.rawValue).joined(separator: ", ")
                throw Self.problem("has sslmode=\(text): it takes \(modes)")
            }
            tlsMode = mode
        }
        rootCertificates = items["sslrootcert"]
        if let text = items["pool_size"] {
            guard let size = Int(text), (1...100).contains(size) else {
                throw Self.problem("has pool_size=\(text): it takes 1–100 connections")
            }
            poolSize = size
        }
        if let text = items["operation_timeout"] {
            guard let seconds = Int(text), (1...3600).contains(seconds) else {
                throw Self.problem("has operation_timeout=\(text): it takes 1–3600 seconds")
            }
            operationTimeout = .seconds(seconds)
        }
    }

    private static func defaultMode(for endpoint: Endpoint) -> TLSMode {
        if case .socket = endpoint { return .disable }
        return .prefer
    }

    private static func problem(_ what: String) -> StorageError {
        .invalid("The PostgreSQL URL \(what).")
    }

    /// The TLS settings `sslmode` asks for: no certificate check for `prefer` and `require` (libpq's
    /// meaning), the chain for `verify-ca`, the chain and host name for `verify-full`.
    var tlsConfiguration: TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        switch tlsMode {
        case .disable, .allow, .prefer, .require: configuration.certificateVerification = .none
        case .verifyCA: configuration.certificateVerification = .noHostnameVerification
        case .verifyFull: configuration.certificateVerification = .fullVerification
        }
        if let rootCertificates { configuration.trustRoots = .file(rootCertificates) }
        return configuration
    }

    /// The pool's configuration (up to ``poolSize`` connections; `search_path` set to the schema by
    /// the caller once it exists).
    var clientConfiguration: PostgresClient.Configuration {
        let tls: PostgresClient.Configuration.TLS =
            switch tlsMode {
            case .disable: .disable
            case .allow, .prefer: .prefer(tlsConfiguration)
            case .require, .verifyCA, .verifyFull: .require(tlsConfiguration)
            }
        var configuration =
            switch endpoint {
            case .tcp(let host, let port):
                PostgresClient.Configuration(
                    host: host,
                    port: port,
                    username: username,
                    password: password,
                    database: database,
                    tls: .disable
                )
            case .socket(let path):
                PostgresClient.Configuration(
                    unixSocketPath: path,
                    username: username,
                    password: password,
                    database: database
                )
            }
        configuration.tls = tls
        configuration.options.maximumConnections = poolSize
        return configuration
    }

    /// One connection's configuration, the same as the pool's.
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        var configuration: PostgresConnection.Configuration
        switch endpoint {
        case .tcp(let host, let port):
            configuration = .init(
                host: host,
                port: port,
                username: username,
                password: password,
                database: database,
                tls: .disable
            )
        case .socket(let path):
            configuration = .init(unixSocketPath: path, username: username, password: password, database: database)
        }
        switch tlsMode {
        case .disable: configuration.tls = .disable
        case .allow, .prefer: configuration.tls = .prefer(try NIOSSLContext(configuration: tlsConfiguration))
        case .require, .verifyCA, .verifyFull:
            configuration.tls = .require(try NIOSSLContext(configuration: tlsConfiguration))
        }
        return configuration
    }

    /// Where the server connects, for messages (`db.example:5432`, `/run/postgresql/.s.PGSQL.5432`).
    var place: String {
        switch endpoint {
        case .tcp(let host, let port): "\(host):\(port)"
        case .socket(let path): path
        }
    }
}

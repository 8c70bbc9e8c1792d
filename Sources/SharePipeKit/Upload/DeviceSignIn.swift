public import Foundation
import SharePipeProtocol

#if canImport(FoundationNetworking)
public import FoundationNetworking
#endif

/// Signs this device in with a handle and password (`POST /v1/devices`) and returns the tokens the
/// server issued once: the app token and this device's share token.
public struct DeviceSignIn: Sendable {
    /// The server's answer.
    public struct Result: Sendable, Hashable {
        /// The new device's id.
        public var deviceID: UUID
        /// The account's user id.
        public var userID: UUID
        /// The app token (`spa_…`).
        public var appToken: String
        /// The share token (`sps_…`).
        public var shareToken: String
    }

    /// Why signing in failed; the message says what to do.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The kind of failure.
        public enum Kind: Sendable, Hashable {
            /// Wrong handle or password.
            case invalidCredentials
            /// Too many attempts; try again after the wait.
            case rateLimited
            /// The server refused the request as malformed or invalid.
            case invalidRequest
            /// The server could not be reached or answered something unexpected.
            case unreachable
        }

        /// The kind of failure.
        public var kind: Kind
        /// What went wrong and what to do.
        public var message: String
        public var description: String { message }
    }

    /// The server's base URL.
    public let server: URL
    private let transport: any HTTPTransport

    /// How long a sign-in may take before it counts as unreachable.
    static let timeout = Duration.seconds(30)

    /// A sign-in client for `server`, sending through `transport`, or when none is given through
    /// ``URLSessionTransport`` over `session` (default: an ephemeral session that follows no redirect).
    public init(server: URL, session: URLSession? = nil, transport: (any HTTPTransport)? = nil) {
        self.server = server
        self.transport = transport ?? URLSessionTransport(session: session)
    }

    /// Registers a device named `deviceName` for `handle`; or, given the device this one was signed in
    /// as before (`replacing`), signs that device in again with new tokens (the server makes a new
    /// device when it is no longer one of the account's).
    /// - Throws: ``Failure``.
    public func signIn(
        handle: String,
        password: String,
        deviceName: String,
        replacing: UUID? = nil
    ) async throws -> Result {
        var request = URLRequest(url: server.appendingPathComponent("v1/devices"))
        request.httpMethod = "POST"
        request.timeoutInterval = Self.timeout.timeInterval
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try APIJSON.encoder().encode(
            DeviceLogin(handle: handle, password: password, name: deviceName, replacing: replacing)
        )
        let data: Data
        let response: HTTPURLResponse
        do {
            (data, response) = try await transport.send(request, within: ShareUploader.defaultLongestExchange)
        } catch {
            throw Failure(
                kind: .unreachable,
                message:
                    "Could not reach \(server.absoluteString): \(NetworkFailure.describe(error, timeout: Self.timeout)). "
                    + "Check the URL and that the server runs."
            )
        }
        let status = response.statusCode
        let problem = UploadOutcome.problemMessage(data, status: status)
        switch status {
        case 200, 201:
            guard let created = try? APIJSON.decoder().decode(DeviceCreated.self, from: data) else {
                throw Failure(
                    kind: .unreachable,
                    message: "\(server.absoluteString) did not answer like a SharePipe server."
                )
            }
            return Result(
                deviceID: created.device.id,
                userID: created.device.userID,
                appToken: created.appToken,
                shareToken: created.shareToken
            )
        case 401:
            throw Failure(kind: .invalidCredentials, message: "Wrong handle or password. Check them and try again.")
        case 429:
            let header = response.value(forHTTPHeaderField: "Retry-After")
            let wait = header.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }.map(String.init) ?? "a few"
            throw Failure(kind: .rateLimited, message: "Too many sign-in attempts. Try again in \(wait) seconds.")
        case 300..<400:
            let target =
                response.value(forHTTPHeaderField: "Location").map(UploadOutcome.plainText)
                ?? "another address"
            throw Failure(
                kind: .unreachable,
                message: "\(server.absoluteString) redirected to \(target): sign in with the address it names."
            )
        case 400...499:
            throw Failure(
                kind: .invalidRequest,
                message: "The server refused the sign-in: " + Self.sentence(problem ?? "HTTP \(status)")
            )
        default:
            guard let problem else {
                throw Failure(
                    kind: .unreachable,
                    message: "\(server.absoluteString) answered HTTP \(status), which is not how a SharePipe server "
                        + "answers: check the URL, or try again later."
                )
            }
            throw Failure(
                kind: .unreachable,
                message: "\(server.absoluteString) answered HTTP \(status): " + Self.sentence(problem)
                    + " Try again later."
            )
        }
    }

    /// `text` ending in one full stop (a server's detail often has its own).
    static func sentence(_ text: String) -> String {
        text.hasSuffix(".") || text.hasSuffix("!") || text.hasSuffix("?") ? text : text + "."
    }
}

import Foundation
import HTTPTypes

/// One row of the bad-input table: a request that must be refused with `status` and the problem type
/// `https://sharepipe.dev/problems/<type>`.
struct BadInput: Sendable, CustomStringConvertible {
    /// Whose token the request carries.
    enum Credential: Sendable {
        case none
        /// An `Authorization` header as given.
        case header(String)
        /// Ada's app or share token (the fixture's device, "phone").
        case adaApp, adaShare
        /// The tokens of Ada's revoked device, of her expired device.
        case revokedApp, revokedShare, expiredApp
    }

    enum Body: Sendable {
        case none
        case json(String)
        case bytes([UInt8])
    }

    var method: HTTPRequest.Method
    /// The path and query; `{bobShare}`, `{bobLink}`, `{bobDevice}`, `{laptopShare}` stand for ids of
    /// Bob's share, link and device and of a share from Ada's other device.
    var path: String
    var credential: Credential
    var key: String?
    var contentType: String?
    var body: Body
    var status: Int
    var type: String
    /// Other header fields the request carries (an upload's `Upload-Offset`).
    var headers: [(String, String)] = []

    /// A row whose request carries Ada's app token.
    init(_ method: HTTPRequest.Method, _ path: String, body: Body = .none, _ status: Int, _ type: String) {
        self.init(method, path, .adaApp, body: body, status, type)
    }

    init(
        _ method: HTTPRequest.Method,
        _ path: String,
        _ credential: Credential,
        key: String? = nil,
        contentType: String? = nil,
        body: Body = .none,
        _ status: Int,
        _ type: String
    ) {
        self.method = method
        self.path = path
        self.credential = credential
        self.key = key
        self.contentType = contentType ?? (body.isNone ? nil : "application/json")
        self.body = body
        self.status = status
        self.type = type
    }

    /// This row with `name: value` among its header fields.
    func with(_ name: String, _ value: String) -> BadInput {
        var row = self
        row.headers.append((name, value))
        return row
    }

    var description: String {
        let shown: String
        switch body {
        case .none: shown = ""
        case .json(let text): shown = " " + String(text.prefix(60))
        case .bytes(let bytes): shown = " <\(bytes.count) bytes>"
        }
        return "\(method) \(path.prefix(80)) as \(credential)\(key.map { " key \($0.prefix(20))" } ?? "")\(shown)"
    }

    /// A `POST /v1/shares` by Ada's share token with a fresh key.
    static func share(
        _ json: String,
        as credential: Credential = .adaShare,
        key: String? = "k-\(UUID().uuidString)",
        _ status: Int,
        _ type: String
    ) -> BadInput {
        BadInput(.post, "/v1/shares", credential, key: key, body: .json(json), status, type)
    }
}

extension BadInput.Body {
    var isNone: Bool {
        if case .none = self { return true }
        return false
    }
}

public import Foundation

/// An HTTP error as RFC 9457 `application/problem+json`.
///
/// Every error the server answers with is one of these: a stable ``type`` URI a client can branch
/// on, a short ``title`` that is the same for every occurrence of that type, the HTTP ``status``,
/// and a ``detail`` that says what went wrong this time and what to do. Two extension members
/// carry what a client needs to act: ``errors`` names each invalid field by JSON pointer, and
/// ``retryAfter`` repeats the `Retry-After` header in seconds.
///
/// Build them with the constructors in the catalog (``validationFailed(_:)``, ``tokenRevoked``,
/// ``rateLimited(retryAfter:)``…) rather than by hand, so that the type, title and status of a
/// kind of problem never drift apart.
///
/// ```swift
/// var problem = ProblemDetails.validationFailed([
///     .init(pointer: "/url", detail: "`url` must use http or https, not `ftp`.")
/// ])
/// problem.instance = "/v1/shares"
/// let body = problem.jsonData()          // {"detail":"…","errors":[…],"instance":"/v1/shares",…}
/// // Response: status problem.status, Content-Type: ProblemDetails.mediaType
/// ```
public struct ProblemDetails: Error, Sendable, Codable, Hashable {
    /// The media type of a serialised problem: `application/problem+json`.
    public static let mediaType = "application/problem+json"

    /// A URI that identifies the kind of problem; `about:blank` when the status says it all.
    ///
    /// SharePipe's own types live under `https://sharepipe.dev/problems/` (see ``TypeURI``) and
    /// never change meaning once published.
    public var type: String
    /// A short summary of the kind of problem, the same for every occurrence of ``type``.
    public var title: String
    /// The HTTP status code, repeated from the response.
    public var status: Int
    /// What went wrong this time, and what to do about it.
    public var detail: String?
    /// A URI reference for this occurrence, usually the request path.
    public var instance: String?
    /// Extension member: each invalid field of the request body, by JSON pointer.
    public var errors: [FieldError]?
    /// Extension member: seconds to wait before trying again, as in the `Retry-After` header.
    public var retryAfter: Int?

    /// One invalid field of a request body.
    public struct FieldError: Sendable, Codable, Hashable {
        /// An RFC 6901 JSON pointer into the request body, such as `/url` or `/recipients/2`;
        /// the empty string for the body as a whole.
        public var pointer: String
        /// What is wrong with the value there, and what is accepted.
        public var detail: String

        /// Creates a field error.
        /// - Parameters:
        ///   - pointer: An RFC 6901 JSON pointer into the request body (`""` for the whole body).
        ///   - detail: What is wrong with the value, and what is accepted.
        public init(pointer: String, detail: String) {
            self.pointer = pointer
            self.detail = detail
        }
    }

    /// Creates a problem. Prefer the catalog's constructors, which fix type, title and status.
    /// - Parameters:
    ///   - type: A URI identifying the kind of problem; defaults to `about:blank`.
    ///   - title: A short summary of the kind of problem.
    ///   - status: The HTTP status code.
    ///   - detail: What went wrong this time; defaults to none.
    ///   - instance: A URI reference for this occurrence; defaults to none.
    ///   - errors: Invalid fields of the request body; defaults to none.
    ///   - retryAfter: Seconds to wait before trying again; defaults to none.
    public init(
        type: String = "about:blank",
        title: String,
        status: Int,
        detail: String? = nil,
        instance: String? = nil,
        errors: [FieldError]? = nil,
        retryAfter: Int? = nil
    ) {
        self.type = type
        self.title = title
        self.status = status
        self.detail = detail
        self.instance = instance
        self.errors = errors
        self.retryAfter = retryAfter
    }

    private enum CodingKeys: String, CodingKey {
        case type, title, status, detail, instance, errors, retryAfter
    }

    /// Decodes a problem; a missing `type` means `about:blank` and a missing `title` the empty
    /// string, as RFC 9457 § 3.1 allows. A missing `status` is the response's when the problem is
    /// read with ``read(_:status:)`` (the member is advisory, § 3.1.3), else an error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.type = try container.decodeIfPresent(String.self, forKey: .type) ?? "about:blank"
        self.title = try container.decodeIfPresent(String.self, forKey: .title) ?? ""
        if let status = try container.decodeIfPresent(Int.self, forKey: .status) {
            self.status = status
        } else if let status = decoder.userInfo[Self.responseStatus] as? Int {
            self.status = status
        } else {
            throw DecodingError.keyNotFound(
                CodingKeys.status,
                .init(codingPath: container.codingPath, debugDescription: "A problem needs its `status`.")
            )
        }
        self.detail = try container.decodeIfPresent(String.self, forKey: .detail)
        self.instance = try container.decodeIfPresent(String.self, forKey: .instance)
        self.errors = try container.decodeIfPresent([FieldError].self, forKey: .errors)
        self.retryAfter = try container.decodeIfPresent(Int.self, forKey: .retryAfter)
    }

    /// Reads an `application/problem+json` body as a client does, or `nil` when it is no problem.
    ///
    /// ```swift
    /// if let problem = ProblemDetails.read(body, status: response.statusCode) { show(problem.detail ?? problem.title) }
    /// ```
    /// - Parameters:
    ///   - body: The response body.
    ///   - status: The response's status, which a body without a `status` member is taken to have.
    public static func read(_ body: some Collection<UInt8>, status: Int) -> ProblemDetails? {
        let decoder = JSONDecoder()
        decoder.userInfo[responseStatus] = status
        return try? decoder.decode(ProblemDetails.self, from: Data(body))
    }

    /// Where ``read(_:status:)`` hands the response's status to the decoder.
    private static let responseStatus = CodingUserInfoKey(rawValue: "sharepipe.problem.response-status")!

    /// The problem as `application/problem+json` bytes: keys sorted, absent members omitted,
    /// slashes unescaped, no whitespace, so equal problems serialise to equal bytes.
    /// - Returns: UTF-8 JSON for a response body of type ``mediaType``.
    public func jsonData() -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Only strings, integers and arrays of them: encoding cannot fail.
        return try! encoder.encode(self)
    }
}

extension ProblemDetails: CustomStringConvertible {
    /// `status type: detail`, for logs.
    public var description: String {
        "\(status) \(type): \(detail ?? title)"
    }
}

// The problems the server answers with. Each kind has one stable `type` URI, one title and one
// status; only `detail`, `errors`, `retryAfter` and `instance` vary between occurrences.
//
// | status | type (under https://sharepipe.dev/problems/) | when |
// |--------|----------------------------------------------|------|
// | 400 | malformed-json | the body is empty, not UTF-8, or not JSON |
// | 400 | wrong-field-type | well-formed JSON, but a member has the wrong JSON type (pointers) |
// | 400 | idempotency-key-missing | `POST /v1/shares` without `Idempotency-Key` |
// | 400 | idempotency-key-invalid | the key is empty, too long, or has characters outside the spec |
// | 401 | token-missing | no `Authorization: Bearer` token |
// | 401 | token-invalid | the token is unknown or malformed |
// | 401 | token-revoked | the token's device was revoked |
// | 401 | token-expired | the token is past its expiry |
// | 401 | invalid-credentials | `POST /v1/devices` or the sign-in form with a wrong handle or password |
// | 403 | sign-up-closed | the sign-up form while sign-up is turned off |
// | 403 | csrf-failed | a web form post without the page's CSRF token, or from another origin |
// | 403 | insufficient-scope | a valid token whose scope does not allow this (a share token reading `/v1/me`) |
// | 404 | not-found | no such resource — also for another user's resource, so ids leak nothing |
// | 409 | handle-taken | sign-up with a handle someone has |
// | 409 | idempotency-key-in-flight | the first request with this key has not finished yet |
// | 409 | state-conflict | a valid request the resource's state does not allow (a direct conversation's members) |
// | 409 | upload-offset-mismatch | a `PATCH` of an upload from another offset than the server has |
// | 413 | body-too-large | the body exceeds the limit |
// | 413 | file-too-large | an upload over the size of one file |
// | 413 | quota-exceeded | an upload that would take the user past their quota |
// | 413 | upload-past-size | a `PATCH` whose bytes go past the size the upload was announced with |
// | 415 | unsupported-media-type | the body is not `application/json` (UTF-8) |
// | 416 | range-not-satisfiable | a `Range` that starts past the end of a file (`Content-Range: bytes */size`) |
// | 422 | validation-failed | well-formed JSON with invalid values; every field in `errors` |
// | 422 | idempotency-key-reused | the key was used before with a different body |
// | 422 | upload-hash-mismatch | an upload's bytes do not have the SHA-256 it was announced with |
// | 422 | image-too-large | an uploaded image whose header declares too many pixels |
// | 429 | rate-limited | too many requests; `retryAfter` seconds |
// | 500 | internal-error | a bug; the detail never says more than that |
// | 503 | unavailable | the database is unreachable or the server is shutting down |

extension ProblemDetails {
    /// The `type` URIs of SharePipe's problems. They never change meaning once published.
    public enum TypeURI {
        /// The prefix every SharePipe problem type starts with.
        public static let base = "https://sharepipe.dev/problems/"
        /// 400: the body is empty, not UTF-8, or not JSON.
        public static let malformedJSON = base + "malformed-json"
        /// 400: a member of the body has the wrong JSON type.
        public static let wrongFieldType = base + "wrong-field-type"
        /// 400: the body could not be read (malformed chunked framing, or it ended early).
        public static let malformedBody = base + "malformed-body"
        /// 400: the request has no `Idempotency-Key`.
        public static let idempotencyKeyMissing = base + "idempotency-key-missing"
        /// 400: the `Idempotency-Key` is not acceptable.
        public static let idempotencyKeyInvalid = base + "idempotency-key-invalid"
        /// 401: no bearer token.
        public static let tokenMissing = base + "token-missing"
        /// 401: an unknown or malformed token.
        public static let tokenInvalid = base + "token-invalid"
        /// 401: the token's device was revoked.
        public static let tokenRevoked = base + "token-revoked"
        /// 401: the token has expired.
        public static let tokenExpired = base + "token-expired"
        /// 401: a wrong handle or password.
        public static let invalidCredentials = base + "invalid-credentials"
        /// 403: sign-up is turned off on this server.
        public static let signUpClosed = base + "sign-up-closed"
        /// 403: a form post without a matching CSRF token, or from another origin.
        public static let csrfFailed = base + "csrf-failed"
        /// 409: the handle belongs to someone else.
        public static let handleTaken = base + "handle-taken"
        /// 403: the token's scope does not allow the request.
        public static let insufficientScope = base + "insufficient-scope"
        /// 404: no such resource, or one that belongs to someone else.
        public static let notFound = base + "not-found"
        /// 405: the path takes other methods (listed in `Allow`).
        public static let methodNotAllowed = base + "method-not-allowed"
        /// 409: a request with the same idempotency key is still running.
        public static let idempotencyKeyInFlight = base + "idempotency-key-in-flight"
        /// 409: the resource's state does not allow a well-formed request.
        public static let stateConflict = base + "state-conflict"
        /// 413: the body exceeds the limit.
        public static let bodyTooLarge = base + "body-too-large"
        /// 400: the HTTP parser could not read the request's head.
        public static let malformedRequest = base + "malformed-request"
        /// 431: the request's head is over the parser's limit.
        public static let requestHeadTooLarge = base + "request-head-too-large"
        /// 415: the body's media type is not accepted.
        public static let unsupportedMediaType = base + "unsupported-media-type"
        /// 422: well-formed JSON with invalid values.
        public static let validationFailed = base + "validation-failed"
        /// 422: an idempotency key reused with a different body.
        public static let idempotencyKeyReused = base + "idempotency-key-reused"
        /// 429: too many requests.
        public static let rateLimited = base + "rate-limited"
        /// 429: an allowance of the account's is used up for now (new groups a day).
        public static let allowanceUsedUp = base + "allowance-used-up"
        /// 500: an unexpected server error.
        public static let internalError = base + "internal-error"
        /// 501: an oEmbed request for a format the provider does not answer in (only JSON).
        public static let oEmbedFormatUnsupported = base + "oembed-format-unsupported"
        /// 503: the server cannot serve requests right now.
        public static let unavailable = base + "unavailable"
    }

    // MARK: 400

    /// 400: the body could not be read as JSON.
    /// - Parameter detail: Where parsing stopped, if known, and what to send instead.
    public static func malformedJSON(detail: String) -> ProblemDetails {
        ProblemDetails(type: TypeURI.malformedJSON, title: "The body is not valid JSON", status: 400, detail: detail)
    }

    /// 400 `malformed-json` for a body holding 0x00 bytes: JSON is UTF-8 (RFC 8259 §8.1), and
    /// Foundation would also read UTF-16 and UTF-32, whose text is full of them (and in which a NUL
    /// escape could not be looked for). Every JSON body is checked for them first.
    public static let bodyNotUTF8 = malformedJSON(
        detail: "The body is not UTF-8 JSON (it holds 0x00 bytes, as UTF-16 or UTF-32 text does). Send UTF-8."
    )

    /// 400: members of the body have the wrong JSON type (a number where a string belongs…).
    /// - Parameter errors: Each offending member by pointer, saying which type was expected.
    public static func wrongFieldTypes(_ errors: [FieldError]) -> ProblemDetails {
        ProblemDetails(
            type: TypeURI.wrongFieldType,
            title: "A member of the body has the wrong JSON type",
            status: 400,
            detail: count(errors, "member has the wrong type", "members have the wrong type") + listed(errors),
            errors: Array(errors.prefix(maxListedErrors))
        )
    }

    /// 400: the body could not be read: its chunked framing is malformed, or it ended before its
    /// `Content-Length` because the client hung up.
    public static var malformedBody: ProblemDetails {
        ProblemDetails(
            type: TypeURI.malformedBody,
            title: "The body could not be read",
            status: 400,
            detail: "The body ended early or its chunked framing is malformed. Send it again whole."
        )
    }

    /// 400: the request's head (request line and headers) is not HTTP/1.1 the parser can read: a
    /// malformed request line, header or `Content-Length`, or a `Content-Length` with
    /// `Transfer-Encoding`. The connection closes after it.
    /// - Parameter reason: What the parser stumbled on, in words.
    public static func malformedRequest(reason: String) -> ProblemDetails {
        ProblemDetails(
            type: TypeURI.malformedRequest,
            title: "The request could not be read",
            status: 400,
            detail: "The request's head is not valid HTTP/1.1 (\(reason)). Fix the request and send it again."
        )
    }

    /// 431: the request's head is over the parser's limits. The connection closes after it.
    /// - Parameters:
    ///   - limit: The largest head accepted, in bytes.
    ///   - maxHeaders: The most header fields accepted.
    public static func requestHeadTooLarge(limit: Int, maxHeaders: Int) -> ProblemDetails {
        ProblemDetails(
            type: TypeURI.requestHeadTooLarge,
            title: "The request's head is too large",
            status: 431,
            detail: "The request line and headers are over \(limit / 1024) KiB, or there are over "
                + "\(maxHeaders) headers. Send a shorter URL, or fewer or shorter headers."
        )
    }

    /// 400: `POST /v1/shares` needs an `Idempotency-Key` header (the client's share id).
    public static var idempotencyKeyMissing: ProblemDetails {
        ProblemDetails(
            type: TypeURI.idempotencyKeyMissing,
            title: "The request needs an Idempotency-Key",
            status: 400,
            detail: "Send an `Idempotency-Key` header with a unique id for this share (a UUID), "
                + "and the same key when retrying it."
        )
    }

    /// 400: the `Idempotency-Key` header is not acceptable.
    /// - Parameter detail: What is wrong with it (empty, too long, characters).
    public static func idempotencyKeyInvalid(detail: String) -> ProblemDetails {
        ProblemDetails(
            type: TypeURI.idempotencyKeyInvalid,
            title: "The Idempotency-Key is not acceptable",
            status: 400,
            detail: detail
        )
    }

    // MARK: 401 and 403

    /// 401: the request carries no bearer token. Send it with `WWW-Authenticate: Bearer`.
    public static var tokenMissing: ProblemDetails {
        ProblemDetails(
            type: TypeURI.tokenMissing,
            title: "Authentication is required",
            status: 401,
            detail: "Send a token in an `Authorization: Bearer` header."
        )
    }

    /// 401: the token is unknown or malformed. Send it with `WWW-Authenticate: Bearer error="invalid_token"`.
    public static var tokenInvalid: ProblemDetails {
        ProblemDetails(
            type: TypeURI.tokenInvalid,
            title: "The token is not valid",
            status: 401,
            detail: "The token is not one this server issued. Pair the device again for a new token."
        )
    }

    /// 401: the token's device was revoked; the client should forget the token.
    public static var tokenRevoked: ProblemDetails {
        ProblemDetails(
            type: TypeURI.tokenRevoked,
            title: "The token was revoked",
            status: 401,
            detail: "This device was signed out. Pair it again for a new token."
        )
    }

    /// 401: the token is past its expiry.
    public static var tokenExpired: ProblemDetails {
        ProblemDetails(
            type: TypeURI.tokenExpired,
            title: "The token has expired",
            status: 401,
            detail: "The token is past its expiry. Pair the device again for a new token."
        )
    }

    /// 403: a valid token whose scope does not allow the request, such as a share token reading
    /// another device's shares. Another *user's* resource is ``notFound(detail:)`` instead.
    /// - Parameter required: The scope the request needs, such as `app`.
    public static func insufficientScope(required: String) -> ProblemDetails {
        ProblemDetails(
            type: TypeURI.insufficientScope,
            title: "The token's scope does not allow this",
            status: 403,
            detail: "This needs a token with the `\(required)` scope; a share token may only create shares "
                + "and read its own device's shares."
        )
    }

    // MARK: 404, 409

    /// 404: no such resource. Also the answer for a resource that belongs to another user, with a
    /// byte-identical body, so that an id reveals nothing about whether it exists.
    /// - Parameter detail: What was not found, without saying whose it is; defaults to none.
    public static func notFound(detail: String? = nil) -> ProblemDetails {
        ProblemDetails(type: TypeURI.notFound, title: "Not found", status: 404, detail: detail)
    }

    /// 501: the oEmbed provider answers in JSON only (oEmbed 1.0 §2.3.5: "501 Not Implemented" for a
    /// format it cannot give).
    /// - Parameter format: The format asked for.
    public static func oEmbedFormatUnsupported(_ format: String) -> ProblemDetails {
        ProblemDetails(
            type: TypeURI.oEmbedFormatUnsupported,
            title: "Not Implemented",
            status: 501,
            detail: "This oEmbed provider answers format=json only, not format=\(format)."
        )
    }

    /// 409: the first request with this idempotency key has not finished; retry later with the
    /// same key and body.
    /// - Parameter retryAfter: Seconds to wait, also sent as `Retry-After`; defaults to 1.
    public static func idempotencyKeyInFlight(retryAfter: Int? = 1) -> ProblemDetails {
        ProblemDetails(
            type: TypeURI.idempotencyKeyInFlight,
            title: "A request with this Idempotency-Key is in progress",
            status: 409,
            detail: "The first request with this key has not finished. Retry with the same key and body.",
            retryAfter: retryAfter
        )
    }

    /// 409: the request is well formed, but the resource's state does not allow it: a direct
    /// conversation's members never change, a full group takes nobody more, a group keeps two.
    /// - Parameter detail: What the state is, and what to do instead.
    public static func stateConflict(detail: String) -> ProblemDetails {
        ProblemDetails(
            type: TypeURI.stateConflict,
            title: "The request conflicts with the resource's state",
            status: 409,
            detail: detail
        )
    }

    // MARK: 405

    /// 405: the path exists, but not with this method.
    /// - Parameter allowed: The methods the path takes, as in the `Allow` header.
    public static func methodNotAllowed(allowed: [String]) -> ProblemDetails {
        ProblemDetails(
            type: TypeURI.methodNotAllowed,
            title: "Method not allowed",
            status: 405,
            detail: "This path takes \(allowed.joined(separator: ", ")); see /openapi.json."
        )
    }

    // MARK: 413, 415

    /// 413: the body is larger than the server accepts.
    /// - Parameter limit: The largest body accepted, in bytes, when known.
    public static func bodyTooLarge(limit: Int?) -> ProblemDetails {
        ProblemDetails(
            type: TypeURI.bodyTooLarge,
            title: "The body is too large",
            status: 413,
            detail:
                "The body is over the limit\(limit.map { " of \($0) bytes" } ?? ""). Send less text, or share the link alone."
        )
    }

    /// 415: the body's `Content-Type` is not one the route accepts.
    /// - Parameters:
    ///   - received: The `Content-Type` sent, or `nil` when there was none.
    ///   - expected: The media type the route accepts; defaults to `application/json`.
    public static func unsupportedMediaType(
        received: String?,
        expected: String = "application/json"
    )
        -> ProblemDetails
    {
        let sent = received.map { "`\($0)`" } ?? "no `Content-Type`"
        return ProblemDetails(
            type: TypeURI.unsupportedMediaType,
            title: "The body's media type is not supported",
            status: 415,
            detail: "The request has \(sent); send `Content-Type: \(expected)` with a UTF-8 body."
        )
    }

    // MARK: 422

    /// 422: well-formed JSON whose values break the rules; every invalid field is in `errors`.
    /// - Parameter errors: Each invalid field by pointer, saying what is accepted.
    public static func validationFailed(_ errors: [FieldError]) -> ProblemDetails {
        ProblemDetails(
            type: TypeURI.validationFailed,
            title: "The request has invalid values",
            status: 422,
            detail: count(errors, "field is invalid", "fields are invalid") + listed(errors),
            errors: Array(errors.prefix(maxListedErrors))
        )
    }

    /// 422: the idempotency key was used before with a different body (IETF
    /// httpapi-idempotency-key draft). The client should use a new key for a new share.
    public static var idempotencyKeyReused: ProblemDetails {
        ProblemDetails(
            type: TypeURI.idempotencyKeyReused,
            title: "The Idempotency-Key was used with a different body",
            status: 422,
            detail: "This key was already used for a different share. Use a new key for a new share, "
                + "or resend the first body unchanged."
        )
    }

    // MARK: 429, 5xx

    /// 429: too many requests from this token or address.
    /// - Parameter retryAfter: Seconds to wait, also sent as `Retry-After` (at least 1).
    public static func rateLimited(retryAfter: Int) -> ProblemDetails {
        let seconds = max(1, retryAfter)
        return ProblemDetails(
            type: TypeURI.rateLimited,
            title: "Too many requests",
            status: 429,
            detail: "Too many requests. Try again in \(seconds) second\(seconds == 1 ? "" : "s").",
            retryAfter: seconds
        )
    }

    /// 429: the account used up an allowance (the groups it may start in a day); the same request
    /// succeeds later.
    /// - Parameters:
    ///   - detail: Which allowance, and what to do meanwhile.
    ///   - retryAfter: Seconds until the request can succeed, also sent as `Retry-After` (at least 1).
    public static func allowanceUsedUp(detail: String, retryAfter: Int) -> ProblemDetails {
        ProblemDetails(
            type: TypeURI.allowanceUsedUp,
            title: "Allowance used up",
            status: 429,
            detail: detail,
            retryAfter: max(1, retryAfter)
        )
    }

    /// 500: an unexpected error. The detail never includes the underlying error; log that with the
    /// request id instead.
    public static var internalError: ProblemDetails {
        ProblemDetails(
            type: TypeURI.internalError,
            title: "Internal server error",
            status: 500,
            detail: "Something went wrong on the server. It has been logged; try again later."
        )
    }

    /// 503: the server cannot serve requests now (database unreachable, shutting down).
    /// - Parameter retryAfter: Seconds to wait, also sent as `Retry-After`; defaults to none.
    public static func unavailable(retryAfter: Int? = nil) -> ProblemDetails {
        ProblemDetails(
            type: TypeURI.unavailable,
            title: "Service unavailable",
            status: 503,
            detail: "The server cannot handle requests right now. Try again shortly.",
            retryAfter: retryAfter
        )
    }

    private static func count(_ errors: [FieldError], _ one: String, _ many: String) -> String {
        errors.count == 1 ? "1 \(one)" : "\(errors.count) \(many)"
    }

    /// The most field errors a problem lists: a body of 64 KiB can hold tens of thousands of bad
    /// members, and an answer listing each was 50 times the request.
    public static let maxListedErrors = 100

    private static func listed(_ errors: [FieldError]) -> String {
        errors.count > maxListedErrors ? "; `errors` lists the first \(maxListedErrors)." : "; see `errors`."
    }
}

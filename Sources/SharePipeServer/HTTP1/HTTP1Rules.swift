import Foundation
import HTTPTypes
import NIOHTTP1
import SharePipeProtocol

/// What HTTP/1.1 says about a request's head, as ``HTTP1ConnectionHandler`` applies it: pure
/// functions of the head or the parser's error.
enum HTTP1Rules {
    /// The methods the API has, named in the `Allow` of a refused `CONNECT`.
    static let methods = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"]

    /// Why a head that parsed cannot be served, if it cannot: `CONNECT` (SharePipe is no proxy), or a
    /// `Transfer-Encoding` whose last coding is not `chunked` (RFC 9112 §6.3: the body's end cannot be
    /// found, so the request must be refused, not run).
    static func refusal(of head: HTTPRequest) -> ProblemDetails? {
        if head.method == .connect {
            var problem = ProblemDetails.methodNotAllowed(allowed: methods)
            problem.detail = "SharePipe is not a proxy: CONNECT is not served. Send GET, HEAD, POST, PUT, PATCH or DELETE."
            return problem
        }
        let codings = head.headerFields[values: .transferEncoding].flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if !codings.isEmpty && codings.last != "chunked" {
            return .malformedRequest(
                reason: "Transfer-Encoding “\(codings.joined(separator: ", "))” does not end in chunked, "
                    + "so the body's end cannot be found"
            )
        }
        return nil
    }

    /// The problem that answers a head the parser could not read.
    static func problem(for error: HTTPParserError, headLimit: Int, maxHeaders: Int) -> ProblemDetails {
        error == .headerOverflow
            ? .requestHeadTooLarge(limit: headLimit, maxHeaders: maxHeaders)
            : .malformedRequest(reason: reason(error))
    }

    /// What the parser stumbled on, in words a client's author can act on.
    static func reason(_ error: HTTPParserError) -> String {
        switch error {
        case .invalidMethod: "an unknown method"
        case .invalidVersion: "an HTTP version other than 1.0 or 1.1"
        case .invalidURL: "a request target that is not a path"
        case .invalidHeaderToken, .invalidCharactersUsed, .lfExpected:
            "a request line or header with characters HTTP does not allow"
        case .invalidContentLength: "a Content-Length that is not a number of bytes"
        case .unexpectedContentLength: "a Content-Length beside Transfer-Encoding"
        case .paused: "a request an HTTP/1.1 server cannot go on from (HTTP/2 without negotiation, or an upgrade)"
        case .unknown, .strictModeAssertion, .invalidInternalState, .invalidConstant:
            "line endings or framing HTTP/1.1 does not allow (a bare line feed, or Content-Length and "
                + "Transfer-Encoding that do not say where the body ends)"
        default: error.debugDescription
        }
    }

    /// Whether the request's `Connection` header carries the `close` option, written any way RFC 9110
    /// §7.6.1 allows: in any case, among other options (`Connection: TE, Close`).
    static func asksToClose(_ head: HTTPRequest) -> Bool {
        head.headerFields[values: .connection].contains { value in
            value.split(separator: ",").contains {
                $0.trimmingCharacters(in: .whitespaces).caseInsensitiveCompare("close") == .orderedSame
            }
        }
    }

    /// Whether the request's body may run long: chunked (no length declared), or declared over
    /// `maxBodyBytes`, more than any route takes. Answered before such a body arrived, the connection
    /// ends rather than read the rest; a shorter body is read to its end and the connection kept, as
    /// keep-alive clients expect (they send the body of a request the server is already refusing).
    static func bodyMayRunLong(_ head: HTTPRequest, maxBodyBytes: Int) -> Bool {
        if head.headerFields[.transferEncoding] != nil { return true }
        let declared = head.headerFields.declaredContentLength ?? 0
        return declared > maxBodyBytes
    }

    /// Whether the request sends an upload's bytes (`PATCH /v1/uploads/…`), whose body may be a whole
    /// file: `100 Continue` invites it up to the upload limit. (Answered early, it still ends the
    /// connection, as any body over the other routes' limit does: reading a file to throw it away
    /// would take long.)
    static func isUpload(_ head: HTTPRequest) -> Bool {
        head.method == .patch && (head.path ?? "").hasPrefix("/v1/uploads/")
    }

    /// Whether the request waits for `100 Continue` and its body may be taken: a declared length over
    /// `maxBodyBytes` is refused at once with 413, so no 100 invites it.
    static func expectsContinue(_ head: HTTPRequest, maxBodyBytes: Int) -> Bool {
        guard head.headerFields[.expect]?.caseInsensitiveCompare("100-continue") == .orderedSame else { return false }
        let declared = head.headerFields.declaredContentLength ?? 0
        return declared <= maxBodyBytes
    }
}

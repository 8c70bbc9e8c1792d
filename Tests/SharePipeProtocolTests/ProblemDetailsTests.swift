import Foundation
import SharePipeProtocol
import Testing

struct ProblemDetailsTests {
    /// The catalog: a published type URI, title and status must never change by accident.
    @Test(
        arguments: [
            (ProblemDetails.malformedJSON(detail: "x"), 400, "malformed-json"),
            (ProblemDetails.wrongFieldTypes([.init(pointer: "/url", detail: "x")]), 400, "wrong-field-type"),
            (ProblemDetails.idempotencyKeyMissing, 400, "idempotency-key-missing"),
            (ProblemDetails.idempotencyKeyInvalid(detail: "too long"), 400, "idempotency-key-invalid"),
            (ProblemDetails.malformedBody, 400, "malformed-body"),
            (ProblemDetails.malformedRequest(reason: "invalid HTTP method"), 400, "malformed-request"),
            (ProblemDetails.requestHeadTooLarge(limit: 80 << 10, maxHeaders: 1000), 431, "request-head-too-large"),
            (ProblemDetails.tokenMissing, 401, "token-missing"),
            (ProblemDetails.tokenInvalid, 401, "token-invalid"),
            (ProblemDetails.tokenRevoked, 401, "token-revoked"),
            (ProblemDetails.tokenExpired, 401, "token-expired"),
            (ProblemDetails.insufficientScope(required: "app"), 403, "insufficient-scope"),
            (ProblemDetails.notFound(detail: "No share with this id."), 404, "not-found"),
            (ProblemDetails.methodNotAllowed(allowed: ["GET", "HEAD"]), 405, "method-not-allowed"),
            (ProblemDetails.idempotencyKeyInFlight(), 409, "idempotency-key-in-flight"),
            (ProblemDetails.bodyTooLarge(limit: 65_536), 413, "body-too-large"),
            (ProblemDetails.bodyTooLarge(limit: nil), 413, "body-too-large"),
            (ProblemDetails.unsupportedMediaType(received: "text/plain"), 415, "unsupported-media-type"),
            (ProblemDetails.rangeNotSatisfiable(size: 1_024), 416, "range-not-satisfiable"),
            (ProblemDetails.validationFailed([.init(pointer: "/url", detail: "x")]), 422, "validation-failed"),
            (ProblemDetails.idempotencyKeyReused, 422, "idempotency-key-reused"),
            (ProblemDetails.rateLimited(retryAfter: 30), 429, "rate-limited"),
            (ProblemDetails.allowanceUsedUp(detail: "You started 100 groups.", retryAfter: 60), 429, "allowance-used-up"),
            (ProblemDetails.internalError, 500, "internal-error"),
            (ProblemDetails.unavailable(retryAfter: 5), 503, "unavailable"),
        ]
    )
    func catalog(problem: ProblemDetails, status: Int, slug: String) {
        #expect(problem.status == status)
        #expect(problem.type == "https://sharepipe.dev/problems/" + slug)
        #expect(!problem.title.isEmpty)
        #expect(problem.detail?.isEmpty == false)
    }

    @Test func typesAreDistinct() {
        typealias T = ProblemDetails.TypeURI
        let all = [
            T.malformedJSON, T.wrongFieldType, T.idempotencyKeyMissing, T.idempotencyKeyInvalid, T.tokenMissing,
            T.tokenInvalid, T.tokenRevoked, T.tokenExpired, T.insufficientScope, T.notFound, T.idempotencyKeyInFlight,
            T.bodyTooLarge, T.unsupportedMediaType, T.validationFailed, T.idempotencyKeyReused, T.rateLimited,
            T.internalError, T.unavailable, T.malformedBody, T.methodNotAllowed, T.malformedRequest,
            T.requestHeadTooLarge, T.allowanceUsedUp,
        ]
        #expect(Set(all).count == all.count)
        #expect(all.allSatisfy { $0.hasPrefix(ProblemDetails.TypeURI.base) })
    }

    @Test func mediaType() {
        #expect(ProblemDetails.mediaType == "application/problem+json")
    }

    @Test func retryAfterIsCarried() {
        #expect(ProblemDetails.rateLimited(retryAfter: 30).retryAfter == 30)
        #expect(ProblemDetails.rateLimited(retryAfter: 0).retryAfter == 1)  // never "retry at once"
        #expect(ProblemDetails.idempotencyKeyInFlight().retryAfter == 1)
        #expect(ProblemDetails.unavailable().retryAfter == nil)
    }

    /// Another user's resource and a missing one must be indistinguishable.
    @Test func notFoundIsTheSameBytesWhoeverOwnsIt() {
        #expect(
            ProblemDetails.notFound(detail: "No share with this id.").jsonData()
                == ProblemDetails.notFound(detail: "No share with this id.").jsonData()
        )
    }

    @Test func jsonIsCompactSortedAndOmitsAbsentMembers() {
        let problem = ProblemDetails(type: "https://sharepipe.dev/problems/not-found", title: "Not found", status: 404)
        #expect(
            String(decoding: problem.jsonData(), as: UTF8.self)
                == #"{"status":404,"title":"Not found","type":"https://sharepipe.dev/problems/not-found"}"#
        )
    }

    @Test func jsonWithEveryMember() throws {
        var problem = ProblemDetails.validationFailed([.init(pointer: "/recipients/0", detail: "bad")])
        problem.instance = "/v1/shares"
        problem.retryAfter = 2
        let json = String(decoding: problem.jsonData(), as: UTF8.self)
        #expect(
            json
                == #"{"detail":"1 field is invalid; see `errors`.","errors":[{"detail":"bad","pointer":"/recipients/0"}],"#
                + #""instance":"/v1/shares","retryAfter":2,"status":422,"title":"The request has invalid values","#
                + #""type":"https://sharepipe.dev/problems/validation-failed"}"#
        )
    }

    /// Which top-level keys each kind of problem has on the wire.
    @Test(
        arguments: [
            (ProblemDetails.notFound(), ["status", "title", "type"]),
            (ProblemDetails.tokenRevoked, ["detail", "status", "title", "type"]),
            (ProblemDetails.rateLimited(retryAfter: 3), ["detail", "retryAfter", "status", "title", "type"]),
            (
                ProblemDetails.validationFailed([.init(pointer: "/url", detail: "x")]),
                ["detail", "errors", "status", "title", "type"]
            ),
        ]
    )
    func keysOnTheWire(problem: ProblemDetails, keys: [String]) throws {
        let object = try #require(try JSONSerialization.jsonObject(with: problem.jsonData()) as? [String: Any])
        #expect(object.keys.sorted() == keys)
    }

    @Test func roundTrips() throws {
        var problem = ProblemDetails.rateLimited(retryAfter: 9)
        problem.instance = "/v1/preview"
        #expect(try JSONDecoder().decode(ProblemDetails.self, from: problem.jsonData()) == problem)
        let invalid = ProblemDetails.validationFailed([.init(pointer: "/note", detail: "long")])
        #expect(try JSONDecoder().decode(ProblemDetails.self, from: invalid.jsonData()) == invalid)
    }

    @Test func decodingDefaultsTypeToAboutBlank() throws {
        let problem = try JSONDecoder().decode(ProblemDetails.self, from: Data(#"{"status":502}"#.utf8))
        #expect(problem.type == "about:blank")
        #expect(problem.title == "")
        #expect(problem.status == 502)
        #expect(problem.errors == nil)
    }

    /// A client reads what the server wrote, and a problem from a server that leaves out the
    /// advisory `status` (RFC 9457 § 3.1.3) still says what went wrong.
    @Test("A client reads the server's problem; a body without `status` takes the response's")
    func clientReadsProblems() throws {
        let invalid = ProblemDetails.validationFailed([.init(pointer: "/note", detail: "long")])
        #expect(ProblemDetails.read(invalid.jsonData(), status: 422) == invalid)
        let notFound = #"{"title":"Not found","detail":"No route."}"#
        let bare = try #require(ProblemDetails.read(Data(notFound.utf8), status: 404))
        #expect(bare.status == 404 && bare.type == "about:blank" && bare.detail == "No route.")
        // A status in the body is the body's.
        #expect(ProblemDetails.read(Data(#"{"status":503}"#.utf8), status: 500)?.status == 503)
        for body in ["", "<html></html>", "[]", #"{"status":"422"}"#] {
            #expect(ProblemDetails.read(Data(body.utf8), status: 400) == nil, "\(body)")
        }
        // Decoded without a response, a problem must name its status.
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ProblemDetails.self, from: Data("{}".utf8)) }
    }

    @Test func describesItselfForLogs() {
        #expect("\(ProblemDetails.tokenMissing)".hasPrefix("401 https://sharepipe.dev/problems/token-missing: "))
    }
}

import SharePipeProtocol
import Testing

struct ShareSubmissionContentTypeTests {
    @Test(
        arguments: [
            "application/json", "Application/JSON", "application/json; charset=utf-8", "application/json;charset=UTF-8",
            "application/json; charset=\"utf-8\"", "application/json; charset=utf8", "application/json ; foo=bar",
        ]
    )
    func accepted(contentType: String) {
        #expect(ShareSubmission.acceptsContentType(contentType))
    }

    @Test(
        arguments: [
            nil, "", "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
            "application/json; charset=latin1", "application/json; charset=utf-16", "application/jsonx",
            "application/problem+json", "json",
        ]
    )
    func refused(contentType: String?) {
        #expect(!ShareSubmission.acceptsContentType(contentType))
    }

    @Test func refusalIs415() {
        let problem = ProblemDetails.unsupportedMediaType(received: "text/plain")
        #expect(problem.status == 415)
        #expect(problem.type == ProblemDetails.TypeURI.unsupportedMediaType)
        #expect(problem.detail?.contains("`text/plain`") == true)
        #expect(ProblemDetails.unsupportedMediaType(received: nil).detail?.contains("no `Content-Type`") == true)
    }
}

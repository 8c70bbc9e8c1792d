import Hummingbird
import NIOCore
import SharePipeProtocol

extension Request {
    /// The whole body, at most `limit` bytes, with every way reading it can fail answered as the
    /// client's problem: over `limit` (declared in `Content-Length`, or as it arrives) is 413
    /// `body-too-large`; a body whose chunked framing is
    /// malformed, or that ends before its `Content-Length` because the client hung up, is 400
    /// `malformed-body`. (Neither is the server's error, so neither may become a 500.)
    func collectBody(upTo limit: Int) async throws -> ByteBuffer {
        // A declared length over the limit is refused before a byte is read, so a client that sends
        // it slowly does not hold the connection to be told at the end.
        if let declared = headers.declaredContentLength, declared > limit {
            throw ProblemDetails.bodyTooLarge(limit: limit)
        }
        do {
            return try await body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw ProblemDetails.bodyTooLarge(limit: limit)
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw ProblemDetails.malformedBody
        }
    }
}

import Hummingbird
import NIOCore

extension Request {
    /// The whole body, at most `limit` bytes, with every way reading it can fail answered as the
    /// client's problem: over `limit` is 413 `body-too-large`; a body whose chunked framing is
    /// malformed, or that ends before its `Content-Length` because the client hung up, is 400
    /// `malformed-body`. (Neither is the server's error, so neither may become a 500.)
    func collectBody(upTo limit: Int) async throws -> ByteBuffer {
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

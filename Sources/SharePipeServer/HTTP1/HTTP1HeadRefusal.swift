import SharePipeProtocol

/// A request head ``HTTP1RequestHeadHandler`` refused, passed on as an error so that the handler
/// answering every refusal answers it.
struct HTTP1HeadRefusal: Error {
    var problem: ProblemDetails
}

import Foundation
import SharePipeProtocol
import Testing

/// Decodes a JSON string as a `POST /v1/shares` body.
func decode(_ json: String, limits: ShareLimits = .default) -> Result<ShareSubmission, ProblemDetails> {
    ShareSubmission.decode(Array(json.utf8), limits: limits)
}

/// The submission a body decodes to; records an issue and returns nil when it is refused.
func accepted(
    _ json: String,
    limits: ShareLimits = .default,
    sourceLocation: SourceLocation = #_sourceLocation
)
    -> ShareSubmission?
{
    switch decode(json, limits: limits) {
    case .success(let share): return share
    case .failure(let problem):
        Issue.record("refused: \(problem) \(problem.errors ?? [])", sourceLocation: sourceLocation)
        return nil
    }
}

/// The problem a body is refused with; records an issue and returns nil when it is accepted.
func refused(
    _ json: String,
    limits: ShareLimits = .default,
    sourceLocation: SourceLocation = #_sourceLocation
)
    -> ProblemDetails?
{
    refused(bytes: Array(json.utf8), limits: limits, sourceLocation: sourceLocation)
}

func refused(
    bytes: [UInt8],
    limits: ShareLimits = .default,
    sourceLocation: SourceLocation = #_sourceLocation
)
    -> ProblemDetails?
{
    switch ShareSubmission.decode(bytes, limits: limits) {
    case .success(let share):
        Issue.record("accepted: \(share)", sourceLocation: sourceLocation)
        return nil
    case .failure(let problem): return problem
    }
}

/// A JSON string literal for `text`, escaped.
func jsonString(_ text: String) -> String {
    String(decoding: try! JSONEncoder().encode(text), as: UTF8.self)
}

extension ProblemDetails {
    /// The pointers of `errors`, in order.
    var pointers: [String] { (errors ?? []).map(\.pointer) }
}

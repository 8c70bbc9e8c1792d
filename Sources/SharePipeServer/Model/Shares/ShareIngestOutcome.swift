/// What ``Storage/ingestShare(_:response:)`` did.
public enum ShareIngestOutcome: Sendable {
    case recorded(RecordedShare, status: Int, body: String)
    case replay(status: Int, body: String)
    case mismatch
    case inFlight
}

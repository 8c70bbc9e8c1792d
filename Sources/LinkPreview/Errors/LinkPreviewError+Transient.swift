extension LinkPreviewError {
    /// Whether the failure is likely to pass if the site is asked again later, as opposed to an answer
    /// about the link itself: a lookup that failed for now, a refused or timed-out connection, a
    /// silence or the overall deadline, a broken response, a 5xx or 429 status. A provider serves a
    /// stale cached preview instead of such a failure (``MetadataProvider/Configuration/staleIfError``).
    public var isTransient: Bool {
        switch code {
        case .dnsUnavailable, .connect, .timedOut, .stalled, .protocolError:
            return true
        case .httpStatus:
            guard let status = statusCode else { return true }
            return status == 429 || status >= 500
        default:
            return false
        }
    }
}

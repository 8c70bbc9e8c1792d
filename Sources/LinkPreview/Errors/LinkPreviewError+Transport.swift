import Foundation

/// The errors of the wire, worded once for both clients (the page client and AsyncHTTPClient).
extension LinkPreviewError {
    static func cancelled(_ url: URL) -> LinkPreviewError {
        LinkPreviewError(.cancelled, "The preview was cancelled.", url: url)
    }

    static func tookTooLong(_ url: URL) -> LinkPreviewError {
        LinkPreviewError(.timedOut, "The site took too long to answer.", url: url)
    }

    static func stalled(host: String, after silence: Duration, url: URL) -> LinkPreviewError {
        LinkPreviewError(.stalled, "\(host) stopped sending for \(silence.spoken).", url: url)
    }

    static func connectTimedOut(host: String, after timeout: Duration, url: URL) -> LinkPreviewError {
        LinkPreviewError(.connect, "\(host) did not accept a connection within \(timeout.spoken).", url: url)
    }

    static func couldNotConnect(host: String, url: URL, underlying: String) -> LinkPreviewError {
        LinkPreviewError(.connect, "Could not connect to \(host).", url: url, underlying: underlying)
    }
}

import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Words for why a request never got an answer. `localizedDescription` of a `URLError` reads
/// "The operation could not be completed. (NSURLErrorDomain error -1001.)" on Linux.
enum NetworkFailure {
    /// A short clause for `error` ("it did not answer within 20 s", "nothing listens at that address"),
    /// without a final full stop.
    static func describe(_ error: any Error, timeout: Duration? = nil) -> String {
        guard let error = error as? URLError else { return String(describing: error) }
        switch error.code {
        case .timedOut:
            return timeout.map { "it did not answer within \($0.components.seconds) s" } ?? "it did not answer in time"
        case .cannotConnectToHost: return "nothing answered at that address (is the server running?)"
        case .cannotFindHost, .dnsLookupFailed: return "the server's name does not resolve"
        case .notConnectedToInternet: return "this device is offline"
        case .networkConnectionLost: return "the connection dropped"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
            .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot:
            return "its secure connection could not be verified"
        case .unsupportedURL: return "the address is not an http(s) URL"
        case .badServerResponse: return "its answer was not HTTP"
        default: return "network error \(error.code.rawValue)"
        }
    }
}

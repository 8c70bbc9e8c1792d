import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Keeps a session from following redirects: a `POST` redirected with 301, 302 or 303 becomes a `GET`
/// of the new address, whose page would answer 200 for a share that was never recorded. The 3xx
/// itself is the answer (``UploadOutcome/classify(status:header:body:)`` keeps the item).
final class RedirectRefusal: NSObject, URLSessionTaskDelegate, Sendable {
    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    /// An ephemeral session (no cache, no cookies) that follows no redirects, shared by every uploader
    /// and sign-in, so an app that makes one per drain does not pile up sessions.
    ///
    /// A request's `timeoutInterval` is a silence limit: a proxy or portal trickling a byte now and
    /// then held an upload, and the drain, for as long as it liked (the resource limit defaults to 7
    /// days), past the claim's lease. Each request now ends within ``longestExchange``.
    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForResource = longestExchange
        return URLSession(configuration: configuration, delegate: RedirectRefusal(), delegateQueue: nil)
    }()

    /// The longest one upload or sign-in may take in all (``ShareUploader/defaultLongestExchange``).
    /// Kept by ``BoundedExchange`` too: FoundationNetworking ignores `timeoutIntervalForResource`.
    static let longestExchange = TimeInterval(ShareUploader.defaultLongestExchange.components.seconds)
}

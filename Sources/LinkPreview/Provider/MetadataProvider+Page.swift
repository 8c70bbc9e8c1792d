import AsyncHTTPClient
import Foundation
import LinkPreviewCore
import NIOCore

extension MetadataProvider {
    /// Follows redirects by hand from `url` (each hop vetted again by the policy) and reads the page.
    /// A stale cache entry's validators go to the URL they were recorded for, when the redirects
    /// lead there again (a changed chain is noticed; its redirects cost no body).
    func fetchPage(
        _ url: URL,
        revalidating stale: CachedPreview?,
        deadline: ContinuousClock.Instant
    ) async throws -> FetchedPage {
        let policy = configuration.policy
        var current = url
        var redirects: [URL] = []
        var visited: Set<String> = [url.absoluteString]
        while true {
            var validators: [(String, String)] = []
            if let stale, current == stale.validatorURL {
                if let etag = stale.etag { validators.append(("If-None-Match", etag)) }
                if let lastModified = stale.lastModified { validators.append(("If-Modified-Since", lastModified)) }
            }
            let hopURL = current
            let exchange = try await fetcher.exchange(
                hopURL,
                headers: validators,
                deadline: deadline,
                logger: logger,
                reader: HopReader(
                    url: hopURL,
                    originalURL: url,
                    revalidating: !validators.isEmpty,
                    limits: policy.limits
                )
            )
            let hop = exchange.output
            switch hop {
            case .notModified(var page), .page(var page):
                page.redirects = redirects
                page.bytesRead = exchange.bodyBytesReceived
                return page
            case .redirect(let next):
                try Self.checkRedirect(from: hopURL, to: next, policy: policy.redirects)
                guard visited.insert(next.absoluteString).inserted else {
                    throw LinkPreviewError(
                        .redirectLoop,
                        "The link redirects in a circle (back to \(next.absoluteString)).",
                        url: next
                    )
                }
                redirects.append(next)
                guard redirects.count <= policy.redirects.maxRedirects else {
                    throw LinkPreviewError(
                        .tooManyRedirects,
                        "The link redirects more than \(policy.redirects.maxRedirects) times.",
                        url: next
                    )
                }
                current = next
            }
        }
    }

    /// Refuses a redirect to a scheme other than http(s), or from https to http when the policy
    /// forbids downgrades. (The address policy checks the new host when the hop is fetched.)
    static func checkRedirect(from: URL, to next: URL, policy: FetchPolicy.RedirectPolicy) throws {
        let scheme = next.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" else {
            throw LinkPreviewError(
                .notAllowedURL,
                "The link redirects to a \(scheme.isEmpty ? "non-web" : scheme + ":") address, which is not fetched.",
                url: next
            )
        }
        if scheme == "http" && from.scheme?.lowercased() == "https" && !policy.allowsDowngrade {
            throw LinkPreviewError(
                .notAllowedURL,
                "The link redirects from https to insecure http, which this policy refuses.",
                url: next
            )
        }
    }
}

import AsyncHTTPClient
import Foundation
import LinkPreviewCore
import Logging
import NIOCore

/// Completes a page's metadata with what other resources say, all through the same vetted fetcher
/// and within one deadline: the icon and image are checked to exist and be images (header bytes
/// only), `/favicon.ico` and web-app manifest icons stand in for a missing icon, and oEmbed and the
/// manifest fill fields the page left empty. A subresource that fails or is refused is left out;
/// it never fails the preview.
struct SubresourceReader: Sendable {
    let fetcher: HTTPFetcher
    let logger: Logger

    var limits: FetchPolicy.Limits { fetcher.policy.limits }

    func enrich(_ metadata: LinkMetadata, deadline: ContinuousClock.Instant) async -> LinkMetadata {
        async let manifest = bounded(deadline) { await readManifest(metadata.manifestURL, deadline: deadline) }
        async let oEmbed = bounded(deadline) {
            await readOEmbed(metadata.oEmbed.first { $0.format == .json }?.url, deadline: deadline)
        }
        async let images = bounded(deadline) { await verifiedImages(metadata.images, deadline: deadline) }
        let manifestFacts = await manifest
        let declaredIcons = metadata.rankedIcons()
        // The manifest's icons are ranked with the page's: the one probed first is the one a card
        // would choose.
        var candidates = metadata
        candidates.icons += manifestFacts?.icons ?? []
        async let icons = bounded(deadline) { [candidates] in
            await verifiedIcons(candidates.rankedIcons(), pageURL: metadata.url, deadline: deadline)
        }
        // A kind whose checks did not finish in time keeps what the page declared.
        let pageImages = await images ?? metadata.images
        let facts = await oEmbed
        // An oEmbed thumbnail stands in for a page without a working image: it is checked like one,
        // while the icons are, and left out when it is not an image or its check does not finish.
        let thumbnail = pageImages.isEmpty ? facts?.thumbnail : nil
        async let checkedThumbnail = bounded(deadline) { () async -> [LinkMedia]? in
            guard let thumbnail else { return nil }
            return await verifiedImages([thumbnail], deadline: deadline)
        }
        var result = metadata
        result.images = pageImages
        result.icons = await icons ?? declaredIcons
        if let manifestFacts { manifestFacts.fill(&result) }
        if let facts {
            facts.fill(&result)
            if thumbnail != nil { result.images = await checkedThumbnail ?? [] }
        }
        return result
    }

    /// `operation`'s result, or nil when `deadline` passes first (the operation is then cancelled).
    ///
    /// Also nil when the operation ended as the deadline passed: its requests' own timers are set to
    /// the same instant, and a check that failed because one fired first did not fail, it did not
    /// finish (so what the page declared is kept, as for any check that does not finish in time).
    func bounded<T: Sendable>(
        _ deadline: ContinuousClock.Instant,
        _ operation: @escaping @Sendable () async -> T?
    ) async -> T? {
        let value = (try? await Deadline.run(until: deadline, on: fetcher.eventLoopGroup.any(), operation)) ?? nil
        return ContinuousClock.now >= deadline ? nil : value
    }

    /// Fetches `url` and gives the final response, with the URL it came from, to `body`, following at most
    /// ``maxRedirects`` redirects to http(s) URLs (each hop vetted by the policy like any other).
    ///
    /// - Throws: As the page's own redirects do: ``LinkPreviewError/Code/protocolError`` for a redirect
    ///   without a `Location`, ``LinkPreviewError/Code/notAllowedURL`` for one to another scheme,
    ///   ``LinkPreviewError/Code/tooManyRedirects`` past ``maxRedirects``; and what fetching throws.
    func withFinalResponse<T>(
        _ url: URL,
        headers: [(String, String)],
        deadline: ContinuousClock.Instant,
        _ body: (FetchResponse, URL) async throws -> T?
    ) async throws -> T? {
        var current = url
        for _ in 0...Self.maxRedirects {
            let step: SubresourceStep<T> = try await fetcher.withResponse(
                to: current,
                headers: headers,
                deadline: deadline,
                logger: logger
            ) { response in
                guard response.isRedirect else { return .done(try await body(response, current)) }
                let host = current.host() ?? "The site"
                guard let next = response.location else {
                    throw LinkPreviewError(
                        .protocolError,
                        "\(host) redirected without saying where to.",
                        url: current,
                        statusCode: response.status
                    )
                }
                // The page's rules: http or https only, and no https → http unless the policy allows it.
                try MetadataProvider.checkRedirect(from: current, to: next, policy: fetcher.policy.redirects)
                return .redirect(next)
            }
            switch step {
            case .done(let value): return value
            case .redirect(let next): current = next
            }
        }
        throw LinkPreviewError(
            .tooManyRedirects,
            "\(url.host() ?? "The site") redirected more than \(Self.maxRedirects) times.",
            url: url
        )
    }

    /// Redirects a subresource may take (`http` → `https`, a CDN).
    static let maxRedirects = 3

    /// The one image a card should show that proves to be an image, or none: probed in order, at most
    /// ``FetchPolicy/Limits/maxProbesPerKind``, the first that also ``LinkMetadata/suitsACard(_:)``
    /// (else the first that is an image at all), its size and type filled in from its header and its
    /// ``LinkMedia/url`` the URL probed. Images that failed or were not tried are dropped: a card
    /// shows only a picture that was checked.
    func verifiedImages(_ images: [LinkMedia], deadline: ContinuousClock.Instant) async -> [LinkMedia] {
        var firstImage: LinkMedia?
        for candidate in images.prefix(limits.maxProbesPerKind) {
            guard let header = await probe(candidate.preferredURL, deadline: deadline) else { continue }
            var image = candidate
            image.url = candidate.preferredURL
            image.secureURL = nil
            if image.width == nil || image.height == nil {
                image.width = header.width
                image.height = header.height
            }
            image.type = image.type ?? header.format.mimeType
            if LinkMetadata.suitsACard(image) { return [image] }
            firstImage = firstImage ?? image
        }
        return firstImage.map { [$0] } ?? []
    }

    /// The one icon to show, or none: `icons` (best first) probed in order, at most
    /// ``FetchPolicy/Limits/maxProbesPerKind``, the first that proves to be an image, its size and
    /// type filled in from its header; else `/favicon.ico` when it is one. The others are dropped, so
    /// the icon a card chooses is one that was checked.
    func verifiedIcons(_ icons: [LinkIcon], pageURL: URL?, deadline: ContinuousClock.Instant) async -> [LinkIcon] {
        for candidate in icons.prefix(limits.maxProbesPerKind) {
            guard let header = await probe(candidate.url, deadline: deadline) else { continue }
            var icon = candidate
            if icon.sizes == nil, let width = header.width, let height = header.height {
                icon.sizes = "\(width)x\(height)"
            }
            icon.type = icon.type ?? header.format.mimeType
            return [icon]
        }
        guard let pageURL, let favicon = URL(string: "/favicon.ico", relativeTo: pageURL)?.absoluteURL,
            !icons.prefix(limits.maxProbesPerKind).contains(where: { $0.url == favicon }),
            let header = await probe(favicon, deadline: deadline)
        else { return [] }
        let sizes = header.width.flatMap { w in header.height.map { "\(w)x\($0)" } }
        return [LinkIcon(url: favicon, sizes: sizes, type: header.format.mimeType, rel: "icon")]
    }

    /// The header of the image at `url`, or nil when it is missing, refused or not an image. Asks
    /// for the first bytes only (`Range`), reads at most ``FetchPolicy/Limits/mediaHeaderBytes``.
    func probe(_ url: URL, deadline: ContinuousClock.Instant) async -> ImageHeader? {
        do {
            return try await withFinalResponse(
                url,
                headers: [("Range", "bytes=0-\(limits.mediaHeaderBytes - 1)"), ("Accept", "image/*")],
                deadline: deadline
            ) { response, _ -> ImageHeader? in
                guard response.status == 200 || response.status == 206 else { return nil }
                if let length = response.contentLength, length > limits.hardCap { return nil }
                var bytes: [UInt8] = []
                for try await chunk in response.body {
                    bytes.append(contentsOf: chunk.readableBytesView)
                    if bytes.count >= limits.mediaHeaderBytes || ImageHeader.read(bytes)?.width != nil { break }
                }
                guard
                    case .image(let format) = ContentSniffer.classify(
                        contentType: response.contentType,
                        leadingBytes: bytes
                    )
                else { return nil }
                return ImageHeader.read(bytes) ?? ImageHeader(format: format, width: nil, height: nil)
            }
        } catch {
            logger.debug("subresource failed", metadata: ["fetch.url": "\(url)", "fetch.error": "\(error)"])
            return nil
        }
    }

    /// A JSON document (oEmbed, manifest) of at most ``FetchPolicy/Limits/documentBytes``.
    func fetchJSON(_ url: URL, deadline: ContinuousClock.Instant) async -> (url: URL, object: [String: Any])? {
        do {
            // The document's own URL, after redirects, is what its relative URLs resolve against.
            let document: (bytes: [UInt8], url: URL)? = try await withFinalResponse(
                url,
                headers: [("Accept", "application/json, application/manifest+json;q=0.9, */*;q=0.1")],
                deadline: deadline
            ) { response, finalURL -> (bytes: [UInt8], url: URL)? in
                guard response.status == 200 else { return nil }
                if let length = response.contentLength, length > limits.documentBytes { return nil }
                var bytes: [UInt8] = []
                for try await chunk in response.body {
                    bytes.append(contentsOf: chunk.readableBytesView)
                    if bytes.count > limits.documentBytes { return nil }
                }
                return (bytes, finalURL)
            }
            guard let document,
                let object = try JSONSerialization.jsonObject(with: Data(document.bytes)) as? [String: Any]
            else { return nil }
            return (document.url, object)
        } catch {
            logger.debug("subresource failed", metadata: ["fetch.url": "\(url)", "fetch.error": "\(error)"])
            return nil
        }
    }

    func readOEmbed(_ url: URL?, deadline: ContinuousClock.Instant) async -> OEmbedFacts? {
        guard let url, let document = await fetchJSON(url, deadline: deadline) else { return nil }
        var facts = OEmbedFacts(document.object, documentURL: document.url)
        // The player is never fetched here, but a client embeds it: one at an address the policy
        // refuses (`http://169.254.169.254/`, an intranet name) would send its viewers there.
        if let player = facts?.player, case .failure = fetcher.policy.addresses.check(url: player.url) {
            facts?.player = nil
        }
        return facts
    }

    func readManifest(_ url: URL?, deadline: ContinuousClock.Instant) async -> ManifestFacts? {
        guard let url, let document = await fetchJSON(url, deadline: deadline) else { return nil }
        return ManifestFacts(document.object, documentURL: document.url)
    }
}

/// One hop of a subresource fetch.
private enum SubresourceStep<T> {
    case redirect(URL)
    case done(T?)
}

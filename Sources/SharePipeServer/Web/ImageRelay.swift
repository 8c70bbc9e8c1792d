import Crypto
import Foundation
import LinkPreview
import Synchronization

/// The web page's images and icons go through the server (`/img/{token}`), so viewers' addresses
/// never reach third parties and the page's Content-Security-Policy can stay `img-src 'self'`.
///
/// A token is the image URL and an HMAC-SHA256 of it under a key kept in the database (shared by
/// every server process), so the relay fetches only URLs the server itself put on a page — it is
/// not an open proxy. Fetches go through ``MetadataProvider/image(at:maxBytes:timeout:)`` (the
/// address policy, at most 2 MiB, the type read from the bytes, never SVG) and are kept in memory,
/// at most 64 MiB, for a day.
final class ImageRelay: Sendable {
    private let key: SymmetricKey
    private let cache = Mutex(RelayCache())

    static let maxBytes = 2 << 20
    static let cacheBytes = 64 << 20
    static let lifetime: TimeInterval = 24 * 3600

    init(secret: String) {
        key = SymmetricKey(data: Data(secret.utf8))
    }

    /// The relay path of `url`.
    func path(for url: URL) -> String {
        let text = url.absoluteString
        return "/img/" + Base64URL.encode(Data(text.utf8)) + "." + signature(text)
    }

    /// The URL a token stands for, if the server signed it.
    func url(forToken token: String) -> URL? {
        let parts = token.split(separator: ".", maxSplits: 1)
        guard parts.count == 2, let data = Base64URL.decode(String(parts[0])) else { return nil }
        let text = String(decoding: data, as: UTF8.self)
        guard DeviceToken.constantTimeEquals(signature(text), String(parts[1])) else { return nil }
        return URL(string: text)
    }

    /// The image for `url`: from memory, or fetched and kept.
    func image(_ url: URL, provider: MetadataProvider) async throws -> FetchedImage {
        let now = Date()
        if let cached = cache.withLock({ $0.entry(url.absoluteString, now: now) }) { return cached }
        let image = try await provider.image(at: url, maxBytes: Self.maxBytes)
        cache.withLock { $0.store(image, for: url.absoluteString, now: now) }
        return image
    }

    private func signature(_ text: String) -> String {
        Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: key)))
    }
}

/// The relay's memory: entries by URL, the oldest dropped first past ``ImageRelay/cacheBytes``.
struct RelayCache {
    private var entries: [String: (image: FetchedImage, storedAt: Date)] = [:]
    private var order: [String] = []
    private var bytes = 0

    mutating func entry(_ key: String, now: Date) -> FetchedImage? {
        guard let entry = entries[key], now.timeIntervalSince(entry.storedAt) < ImageRelay.lifetime else { return nil }
        return entry.image
    }

    mutating func store(_ image: FetchedImage, for key: String, now: Date) {
        if let old = entries[key] { bytes -= old.image.bytes.count } else { order.append(key) }
        entries[key] = (image, now)
        bytes += image.bytes.count
        while bytes > ImageRelay.cacheBytes, !order.isEmpty {
            let oldest = order.removeFirst()
            if let dropped = entries.removeValue(forKey: oldest) { bytes -= dropped.image.bytes.count }
        }
    }
}

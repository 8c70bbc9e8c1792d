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
/// at most 64 MiB, for a day; a failure is remembered for 5 minutes, and requests for one image
/// while it is fetched wait for that fetch, so the relay fetches each URL at most once in a while
/// however often its path is asked for.
final class ImageRelay: Sendable {
    private let key: SymmetricKey
    private let cache = Mutex(RelayCache())
    private let flights = Mutex<[String: Task<FetchedImage?, Never>]>([:])

    static let maxBytes = 2 << 20
    static let cacheBytes = 64 << 20
    static let lifetime: TimeInterval = 24 * 3600
    static let failureLifetime: TimeInterval = 5 * 60

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

    /// The image for `url`: from memory, or fetched (once, for every request that waits) and kept;
    /// `nil` when it cannot be had (fetched and failed, now or in the last 5 minutes).
    func image(_ url: URL, provider: MetadataProvider) async -> FetchedImage? {
        let key = url.absoluteString
        switch cache.withLock({ $0.entry(key, now: Date()) }) {
        case .image(let image)?: return image
        case .failed?: return nil
        case nil: break
        }
        let flight = flights.withLock { flights in
            if let running = flights[key] { return running }
            let fetch = Task { () -> FetchedImage? in
                let image = try? await provider.image(at: url, maxBytes: Self.maxBytes)
                self.cache.withLock { $0.store(image.map(RelayCache.Stored.image) ?? .failed, for: key, now: Date()) }
                self.flights.withLock { $0[key] = nil }
                return image
            }
            flights[key] = fetch
            return fetch
        }
        return await flight.value
    }

    private func signature(_ text: String) -> String {
        Base64URL.encode(Data(HMAC<SHA256>.authenticationCode(for: Data(text.utf8), using: key)))
    }
}

/// The relay's memory: images and failures by URL, the oldest dropped first past
/// ``ImageRelay/cacheBytes`` (a failure counts 1 KiB, so failures cannot grow without bound either).
struct RelayCache {
    enum Stored {
        case image(FetchedImage)
        case failed

        var cost: Int {
            switch self {
            case .image(let image): image.bytes.count
            case .failed: 1 << 10
            }
        }

        var lifetime: TimeInterval {
            switch self {
            case .image: ImageRelay.lifetime
            case .failed: ImageRelay.failureLifetime
            }
        }
    }

    private var entries: [String: (stored: Stored, storedAt: Date)] = [:]
    private var order: [String] = []
    private var bytes = 0

    func entry(_ key: String, now: Date) -> Stored? {
        guard let entry = entries[key], now.timeIntervalSince(entry.storedAt) < entry.stored.lifetime else {
            return nil
        }
        return entry.stored
    }

    mutating func store(_ stored: Stored, for key: String, now: Date) {
        if let old = entries[key] { bytes -= old.stored.cost } else { order.append(key) }
        entries[key] = (stored, now)
        bytes += stored.cost
        while bytes > ImageRelay.cacheBytes, !order.isEmpty {
            let oldest = order.removeFirst()
            if let dropped = entries.removeValue(forKey: oldest) { bytes -= dropped.stored.cost }
        }
    }
}

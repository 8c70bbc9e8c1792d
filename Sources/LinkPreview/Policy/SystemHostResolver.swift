import Foundation
import Synchronization

/// Resolves names with the operating system's resolver (`getaddrinfo`), as every other program on the machine
/// does: `/etc/hosts`, `nsswitch.conf`, `resolv.conf` and its search domains all apply.
///
/// `getaddrinfo` blocks its thread, for as long as the DNS servers take (glibc gives up after 10–30 s), so each
/// lookup runs on a thread of its own: a stuck lookup holds that thread and nothing else, never one of the threads
/// Swift tasks run on. (A Dispatch queue would not do: on Linux Dispatch's worker threads are the Swift
/// cooperative pool's, so a few stuck lookups would stall every task in the process.)
///
/// At most ``maxLookupsInFlight`` lookups are blocked at once; another one fails at once with
/// ``HostResolutionError/Code/temporaryFailure`` rather than adding a thread, so links to names whose DNS never
/// answers cannot pile up threads. Cancelling the task returns at once with `CancellationError`; the abandoned
/// lookup finishes in the background (it cannot be interrupted), its answer is dropped, and it counts against the
/// limit until it returns.
///
/// ```swift
/// let resolver = SystemHostResolver()
/// let addresses = try await resolver.resolve(host: "example.com")
/// let vetted = try AddressPolicy().vet(host: "example.com", addresses: addresses).get()
/// ```
public struct SystemHostResolver: HostResolver {
    /// The most lookups running at once, counting abandoned ones that have not returned yet.
    public let maxLookupsInFlight: Int
    /// Lookups running now, shared by copies of this resolver.
    private let inFlight = LookupCount()
    /// The blocking lookup: `getaddrinfo`, or a stand-in in tests.
    private let blockingLookUp: @Sendable (String) throws -> [IPAddress]

    /// Creates a resolver.
    ///
    /// - Parameter maxLookupsInFlight: The most lookups running at once (default 64), each holding a thread while
    ///   it waits for the DNS servers.
    public init(maxLookupsInFlight: Int = 64) {
        self.init(maxLookupsInFlight: maxLookupsInFlight, lookUp: SystemHostResolver.lookUp)
    }

    /// Creates a resolver that calls `lookUp` instead of `getaddrinfo` (for tests).
    init(maxLookupsInFlight: Int, lookUp: @escaping @Sendable (String) throws -> [IPAddress]) {
        precondition(maxLookupsInFlight > 0, "maxLookupsInFlight must be positive")
        self.maxLookupsInFlight = maxLookupsInFlight
        self.blockingLookUp = lookUp
    }

    /// The IPv4 and IPv6 addresses of `host` (`AF_UNSPEC`, `SOCK_STREAM`), in the resolver's order without
    /// duplicates.
    ///
    /// - Throws: ``HostResolutionError`` with the resolver's message when the lookup fails
    ///   (``HostResolutionError/Code/notFound`` when the name does not exist,
    ///   ``HostResolutionError/Code/temporaryFailure`` when ``maxLookupsInFlight`` lookups are already running);
    ///   `CancellationError` when the task is cancelled.
    public func resolve(host: String) async throws -> [IPAddress] {
        try Task.checkCancellation()
        guard inFlight.reserve(limit: maxLookupsInFlight) else {
            throw HostResolutionError(
                code: .temporaryFailure,
                host: host,
                message: "\(maxLookupsInFlight) lookups are already waiting for the system resolver"
            )
        }
        let resumer = OnceResumedContinuation<[IPAddress]>()
        let (inFlight, lookUp) = (inFlight, blockingLookUp)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard resumer.install(continuation) else {
                    inFlight.release()
                    return
                }
                SystemHostResolver.runBlocking {
                    let result = Result { try lookUp(host) }
                    inFlight.release()
                    resumer.resume(with: result)
                }
            }
        } onCancel: {
            resumer.resume(with: .failure(CancellationError()))
        }
    }
}

extension SystemHostResolver {
    /// Runs `work`, which may block for seconds, on a thread of its own, outside Dispatch's pools, so it never
    /// holds a thread that Swift tasks or other lookups are waiting for. (A Dispatch queue's work runs on Dispatch's
    /// worker threads, which on Linux the Swift cooperative pool shares.)
    static func runBlocking(_ work: @escaping @Sendable () -> Void) {
        Thread.detachNewThread(work)
    }
}

/// The number of lookups running, for ``SystemHostResolver/maxLookupsInFlight``.
private final class LookupCount: Sendable {
    private let count = Atomic<Int>(0)

    /// Takes a place when fewer than `limit` are taken.
    func reserve(limit: Int) -> Bool {
        if count.wrappingAdd(1, ordering: .relaxed).newValue <= limit { return true }
        count.wrappingSubtract(1, ordering: .relaxed)
        return false
    }

    func release() {
        count.wrappingSubtract(1, ordering: .relaxed)
    }
}

import Dispatch

/// Resolves names with the operating system's resolver (`getaddrinfo`), as every other program on the machine
/// does: `/etc/hosts`, `nsswitch.conf`, `resolv.conf` and its search domains all apply.
///
/// `getaddrinfo` blocks its thread, so lookups run on a dedicated Dispatch queue, never on the Swift cooperative
/// pool. Cancelling the task returns at once with `CancellationError`; the abandoned lookup finishes in the
/// background (it cannot be interrupted) and its answer is dropped.
///
/// ```swift
/// let resolver = SystemHostResolver()
/// let addresses = try await resolver.resolve(host: "example.com")
/// let vetted = try AddressPolicy().vet(host: "example.com", addresses: addresses).get()
/// ```
public struct SystemHostResolver: HostResolver {
    /// Blocking lookups run here. A queue of our own targets an overcommitting root queue, so a slow lookup
    /// adds a thread rather than starving other work.
    private static let queue = DispatchQueue(label: "SharePipe.SystemHostResolver", attributes: .concurrent)

    /// Creates a resolver.
    public init() {}

    /// The IPv4 and IPv6 addresses of `host` (`AF_UNSPEC`, `SOCK_STREAM`), in the resolver's order without
    /// duplicates.
    ///
    /// - Throws: ``HostResolutionError`` with the resolver's message when the lookup fails
    ///   (``HostResolutionError/Code/notFound`` when the name does not exist); `CancellationError` when the task
    ///   is cancelled.
    public func resolve(host: String) async throws -> [IPAddress] {
        let resumer = OnceResumedContinuation<[IPAddress]>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                guard resumer.install(continuation) else { return }
                SystemHostResolver.queue.async {
                    resumer.resume(with: Result { try SystemHostResolver.lookUp(host) })
                }
            }
        } onCancel: {
            resumer.resume(with: .failure(CancellationError()))
        }
    }
}

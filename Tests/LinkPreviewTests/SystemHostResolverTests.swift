import Foundation
import Synchronization
import Testing

@testable import LinkPreview

/// Real lookups through getaddrinfo; `localhost` comes from /etc/hosts and `.invalid` never exists (RFC 6761),
/// so these need no network.
struct SystemHostResolverTests {
    let resolver = SystemHostResolver()

    @Test func resolvesLocalhostToLoopback() async throws {
        let addresses = try await resolver.resolve(host: "localhost")
        #expect(!addresses.isEmpty)
        #expect(addresses.allSatisfy { BlockedRange.containing($0)?.name == "loopback" })
        #expect(Set(addresses).count == addresses.count)
        // And the policy refuses that answer.
        #expect(
            AddressPolicy(allowsSingleLabelHosts: true).vet(host: "localhost", addresses: addresses).failureValue != nil
        )
    }

    @Test func resolvesNumericHostsAsInetAtonDoes() async throws {
        // getaddrinfo reads odd IPv4 spellings itself; HostLiteral must (and does) read them the same way.
        let addresses = try await resolver.resolve(host: "0x7f.1")
        #expect(addresses == [IPAddress("127.0.0.1")!])
        #expect(HostLiteral(host: "0x7f.1") == .address(IPAddress("127.0.0.1")!))
    }

    @Test func failsForANameThatDoesNotExist() async throws {
        let error = try await #require(throws: HostResolutionError.self) {
            try await resolver.resolve(host: "nonexistent.invalid")
        }
        #expect(error.host == "nonexistent.invalid")
        #expect(!error.message.isEmpty)
        #expect(error.systemCode != nil)
        // NXDOMAIN normally; a machine whose DNS server cannot be reached reports a temporary failure instead.
        #expect(error.code == .notFound || error.code == .temporaryFailure)
        #expect(error.description.hasPrefix("Cannot resolve nonexistent.invalid: \(error.message)."))
    }

    @Test func returnsAtOnceWhenCancelled() async {
        let task = Task { () async throws -> [IPAddress] in
            withUnsafeCurrentTask { $0?.cancel() }
            return try await SystemHostResolver().resolve(host: "localhost")
        }
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    @Test func stuckLookupsEachGetAThreadAtOnce() async throws {
        // Eight lookups stuck at once, as with links to names whose DNS never answers. Each must start at once on a
        // thread of its own; on the threads Swift tasks share (a concurrent queue on Linux), the third and later
        // would start only as Dispatch grows its pool, about a thread a second, and tasks would wait meanwhile.
        // The start times are taken by the work itself, so other tests keeping threads busy cannot blur them.
        let starts = StartTimes()
        let gate = DispatchSemaphore(value: 0)
        let begin = ContinuousClock.now
        for _ in 0..<8 {
            SystemHostResolver.runBlocking {
                starts.record()
                gate.wait()
            }
        }
        for _ in 0..<1000 where starts.count < 8 { try await Task.sleep(for: .milliseconds(10)) }
        let latest = starts.latest
        for _ in 0..<8 { gate.signal() }
        #expect(starts.count == 8)
        // Dispatch would take some 6 s to grow by six threads; thread creation on a loaded machine, well under 3 s.
        #expect(try #require(latest) - begin < .seconds(3))
    }

    @Test func refusesALookupBeyondTheLimitInsteadOfAddingAThread() async throws {
        let dns = StuckLookups()
        let resolver = SystemHostResolver(maxLookupsInFlight: 2, lookUp: dns.lookUp)
        let lookups = (0..<2).map { index in Task { try await resolver.resolve(host: "stuck\(index).example") } }
        await dns.waitUntilBlocked(2)
        let error = try await #require(throws: HostResolutionError.self) {
            try await resolver.resolve(host: "third.example")
        }
        #expect(error.code == .temporaryFailure)
        #expect(
            error.description
                == "Cannot resolve third.example: 2 lookups are already waiting for the system resolver. Try again later."
        )
        dns.answer(2)
        for lookup in lookups { _ = try await lookup.value }
        // The places free up once the lookups return.
        dns.answer(1)
        #expect(try await resolver.resolve(host: "fourth.example") == [IPAddress("192.0.2.1")!])
    }

    @Test func anAbandonedLookupKeepsItsPlaceUntilItReturns() async throws {
        let dns = StuckLookups()
        let resolver = SystemHostResolver(maxLookupsInFlight: 1, lookUp: dns.lookUp)
        let abandoned = Task { try await resolver.resolve(host: "stuck.example") }
        await dns.waitUntilBlocked(1)
        abandoned.cancel()
        await #expect(throws: CancellationError.self) { try await abandoned.value }
        // Its thread is still blocked, so it still counts.
        await #expect(throws: HostResolutionError.self) { try await resolver.resolve(host: "next.example") }
        // Once it returns and releases its place, the next lookup runs.
        dns.answer(2)
        var answer: [IPAddress]?
        let deadline = ContinuousClock.now + .seconds(30)
        while answer == nil, ContinuousClock.now < deadline {
            do {
                answer = try await resolver.resolve(host: "next.example")
            } catch let error as HostResolutionError where error.code == .temporaryFailure {
                try await Task.sleep(for: .milliseconds(10))
            }
        }
        #expect(answer == [IPAddress("192.0.2.1")!])
    }
}

/// A stand-in for DNS servers that do not answer: each lookup blocks its thread, as `getaddrinfo` does, until
/// ``answer(_:)``.
///
/// `@unchecked Sendable`: the semaphore and the stream's continuation are safe to use from any thread; the
/// iterator is only used by the test's own task.
private final class StuckLookups: @unchecked Sendable {
    private let gate = DispatchSemaphore(value: 0)
    private let entered = AsyncStream<Void>.makeStream()
    private var enteredIterator: AsyncStream<Void>.AsyncIterator

    init() {
        enteredIterator = entered.stream.makeAsyncIterator()
    }

    func lookUp(_ host: String) throws -> [IPAddress] {
        entered.continuation.yield()
        gate.wait()
        return [IPAddress("192.0.2.1")!]
    }

    /// Waits until `count` more lookups are blocked.
    func waitUntilBlocked(_ count: Int) async {
        for _ in 0..<count { await enteredIterator.next() }
    }

    /// Lets `count` lookups (blocked now or later) return.
    func answer(_ count: Int) {
        for _ in 0..<count { gate.signal() }
    }
}

/// When each piece of blocking work started.
private final class StartTimes: Sendable {
    private let times = Mutex<[ContinuousClock.Instant]>([])

    func record() { times.withLock { $0.append(.now) } }
    var count: Int { times.withLock { $0.count } }
    var latest: ContinuousClock.Instant? { times.withLock { $0.max() } }
}

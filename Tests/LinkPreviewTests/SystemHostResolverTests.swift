import Foundation
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
}

import Foundation
import Testing

@testable import LinkPreview

struct StaticHostResolverTests {
    @Test func answersFromItsTable() async throws {
        let resolver = StaticHostResolver([
            "Example.com.": [IPAddress("93.184.215.14")!, IPAddress("93.184.215.14")!],
            "rebind.example": [IPAddress("8.8.8.8")!, IPAddress("10.0.0.1")!],
        ])
        #expect(try await resolver.resolve(host: "EXAMPLE.COM") == [IPAddress("93.184.215.14")!])
        #expect(try await resolver.resolve(host: "example.com.") == [IPAddress("93.184.215.14")!])
        let rebind = try await resolver.resolve(host: "rebind.example")
        #expect(AddressPolicy().vet(host: "rebind.example", addresses: rebind).failureValue != nil)
    }

    @Test func failsForUnknownNamesAsTheSystemResolverDoes() async throws {
        let error = try await #require(throws: HostResolutionError.self) {
            try await StaticHostResolver([:]).resolve(host: "nonexistent.invalid")
        }
        #expect(error.code == .notFound)
        #expect(error.host == "nonexistent.invalid")
    }
}

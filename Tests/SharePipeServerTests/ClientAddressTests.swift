import HTTPTypes
import HummingbirdTesting
import LinkPreview
import SharePipeServer
import Testing

@testable import SharePipeServer

@Suite("The client's address behind a proxy: X-Forwarded-For from trusted proxies only")
struct ClientAddressTests {
    static let proxies = [IPNetwork("10.0.0.0/8")!, IPNetwork("fd00::/8")!]

    @Test(
        "The client is the rightmost address that is not a trusted proxy",
        arguments: [
            // (peer, X-Forwarded-For fields, client)
            ("203.0.113.9", ["198.51.100.1"], "203.0.113.9"),  // an untrusted peer's header is ignored
            ("10.0.0.2", [], "10.0.0.2"),  // a trusted peer that named nobody
            ("10.0.0.2", ["198.51.100.1"], "198.51.100.1"),
            ("10.0.0.2", ["1.2.3.4, 198.51.100.1"], "198.51.100.1"),  // a client's forged left end
            ("10.0.0.2", ["198.51.100.1, 10.0.0.7"], "198.51.100.1"),  // two proxies in a row
            ("10.0.0.2", ["1.2.3.4", "198.51.100.1, 10.0.0.7"], "198.51.100.1"),  // several fields
            ("10.0.0.2", ["10.0.0.8, 10.0.0.7"], "10.0.0.8"),  // every hop trusted: the farthest
            ("10.0.0.2", ["198.51.100.1, unknown"], "10.0.0.2"),  // a hop the proxy could not name
            ("10.0.0.2", ["198.51.100.1:4711"], "198.51.100.1"),
            ("10.0.0.2", ["[2001:db8::1]:4711"], "2001:db8::1"),
            ("10.0.0.2", ["2001:DB8::1"], "2001:db8::1"),
            ("::ffff:10.0.0.2", ["198.51.100.1"], "198.51.100.1"),  // a dual-stack listener's peer
            ("::ffff:203.0.113.9", ["198.51.100.1"], "203.0.113.9"),
            ("fd00::5", ["::ffff:198.51.100.1"], "198.51.100.1"),
        ]
    )
    func resolves(peer: String, forwardedFor: [String], client: String) {
        #expect(ClientAddress.resolve(peer: peer, forwardedFor: forwardedFor, trustedProxies: Self.proxies) == client)
    }

    @Test("With no trusted proxy, the header changes nothing")
    func untrustedByDefault() {
        #expect(
            ClientAddress.resolve(peer: "10.0.0.2", forwardedFor: ["198.51.100.1"], trustedProxies: []) == "10.0.0.2"
        )
        #expect(ClientAddress.resolve(peer: nil, forwardedFor: ["198.51.100.1"], trustedProxies: Self.proxies) == nil)
    }

    /// Two wrong passwords for two handles from one forwarded client (its whole allowance, which
    /// refills one attempt per 150 s: far longer than a loaded machine takes for these requests), then
    /// one more from it (`same`, sent from `sameClient`, by default the client itself) and one from
    /// another client behind the same proxy (`other`).
    static func signInsBehindProxy(
        trusting proxies: [IPNetwork],
        clientAddress: String = "198.51.100.1",
        sameClient: String? = nil,
        otherClient: String = "198.51.100.2",
        same: Int,
        other: Int
    ) async throws {
        try await ServerFixture.run(configure: {
            $0.limits.signInAttemptsPerFiveMinutes = 2
            $0.listener.trustedProxies = proxies
        }) { _, client in
            func attempt(_ handle: String, from address: String) async throws -> Int {
                var headers = ServerFixture.headers(token: nil, json: true)
                headers[HTTPField.Name("X-Forwarded-For")!] = address
                let response = try await client.execute(
                    uri: "/v1/devices",
                    method: .post,
                    headers: headers,
                    body: ServerFixture.body(#"{"handle": "\#(handle)", "password": "guess1234", "name": "x"}"#)
                )
                return Int(response.status.code)
            }
            for index in 0..<2 {
                let status = try await attempt("nobody\(index)", from: clientAddress)
                #expect(status == 401)
            }
            let fromSame = try await attempt("nobody2", from: sameClient ?? clientAddress)
            let fromOther = try await attempt("nobody3", from: otherClient)
            #expect(fromSame == same)
            #expect(fromOther == other)
        }
    }

    @Test("Behind a trusted proxy, each client has its own sign-in allowance")
    func throttlesEachClient() async throws {
        try await Self.signInsBehindProxy(
            trusting: [IPNetwork("127.0.0.1")!, IPNetwork("::1")!],
            same: 429,
            other: 401
        )
    }

    @Test("From a peer that is not a trusted proxy, X-Forwarded-For cannot open a fresh allowance")
    func ignoresUntrustedHeader() async throws {
        try await Self.signInsBehindProxy(trusting: [], same: 429, other: 429)
    }

    @Test("An IPv6 client is counted by its /64: another address in it opens no fresh allowance")
    func throttlesIPv6ByPrefix() async throws {
        try await Self.signInsBehindProxy(
            trusting: [IPNetwork("127.0.0.1")!, IPNetwork("::1")!],
            clientAddress: "2001:db8:1:2::1",
            sameClient: "2001:db8:1:2:ffff:ffff:ffff:fffe",
            otherClient: "2001:db8:1:3::1",
            same: 429,
            other: 401
        )
    }

    @Test(
        "The limits count IPv4 addresses one by one and IPv6 addresses by /64",
        arguments: [
            ("198.51.100.7", "198.51.100.7"),
            ("2001:db8:1:2::1", "2001:db8:1:2::/64"),
            ("2001:db8:1:2:aaaa:bbbb:cccc:dddd", "2001:db8:1:2::/64"),
            ("::1", "::/64"),
            ("::ffff:198.51.100.7", "198.51.100.7"),
            ("64:ff9b::198.51.100.7", "198.51.100.7"),
            ("64:ff9b::c633:6408", "198.51.100.8"),
            ("a Unix socket", "a Unix socket"),
        ]
    )
    func limitKeys(address: String, key: String) {
        #expect(ClientAddress.limitKey(for: address) == key)
    }
}

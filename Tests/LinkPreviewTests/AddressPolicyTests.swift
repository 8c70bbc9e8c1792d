import Foundation
import LinkPreviewCore
import Testing

@testable import LinkPreview

struct AddressPolicyTests {
    let policy = AddressPolicy()

    private func check(
        _ string: String,
        with policy: AddressPolicy = AddressPolicy()
    ) throws -> Result<
        HostCheck, AddressRefusal
    > {
        let url = try #require(URL(string: string), "Foundation did not parse \(string)")
        return policy.check(url: url)
    }

    private func blocked(_ address: String, _ rangeName: String) -> Result<HostCheck, AddressRefusal> {
        .failure(AddressRefusal(.blockedAddress(IPAddress(address)!, rangeName: rangeName)))
    }

    // MARK: Odd literals

    @Test(arguments: [
        ("http://0/", "0.0.0.0", "\"this network\""),
        ("http://0.0.0.0/", "0.0.0.0", "\"this network\""),
        ("http://127.1/", "127.0.0.1", "loopback"),
        ("http://127.0.1/", "127.0.0.1", "loopback"),
        ("http://2130706433/", "127.0.0.1", "loopback"),
        ("http://0x7f000001/", "127.0.0.1", "loopback"),
        ("http://0x7f.1/", "127.0.0.1", "loopback"),
        ("http://017700000001/", "127.0.0.1", "loopback"),
        ("http://0177.0.0.1/", "127.0.0.1", "loopback"),
        ("http://127.0.0.1./", "127.0.0.1", "loopback"),
        ("http://127.0.0.1:80/", "127.0.0.1", "loopback"),
        ("http://%31%32%37.0.0.1/", "127.0.0.1", "loopback"),
        ("http://127.0.0.1%2e/", "127.0.0.1", "loopback"),
        // Foundation maps fullwidth digits and the ideographic full stop (IDNA) before we see the host.
        ("http://１２７.0.0.1/", "127.0.0.1", "loopback"),
        ("http://127.0.0.1。/", "127.0.0.1", "loopback"),
        ("http://１２７。０。０。１/", "127.0.0.1", "loopback"),
        ("http://169.254.43518/", "169.254.169.254", "link-local"),
        ("http://[::1]/", "::1", "loopback"),
        ("http://[::]/", "::", "unspecified"),
        // IPv4-mapped: refused as the address written, in the range of the IPv4 address inside.
        ("http://[::ffff:127.0.0.1]/", "::ffff:127.0.0.1", "loopback"),
        ("http://[::ffff:7f00:1]/", "::ffff:127.0.0.1", "loopback"),
        ("http://[0:0:0:0:0:ffff:a00:1]/", "::ffff:10.0.0.1", "private network (RFC 1918)"),
        ("http://[::127.0.0.1]/", "::127.0.0.1", "IPv4-compatible (deprecated)"),
        ("http://[64:ff9b::7f00:1]/", "64:ff9b::7f00:1", "NAT64"),
        ("http://[fe80::1]/", "fe80::1", "link-local"),
    ])
    func refusesOddLiteralsOfBlockedAddresses(url: String, address: String, rangeName: String) throws {
        #expect(try check(url) == blocked(address, rangeName))
    }

    @Test(arguments: [
        ("http://8.8.8.8/", "8.8.8.8"),
        ("https://1.1.1.1/dns-query", "1.1.1.1"),
        ("http://134744072/", "8.8.8.8"),
        ("http://0x08080808/", "8.8.8.8"),
        ("https://[2606:4700::1111]/", "2606:4700::1111"),
        ("https://[2606:4700:0:0:0:0:0:1111]:443/", "2606:4700::1111"),
        ("http://[::ffff:8.8.8.8]/", "::ffff:8.8.8.8"),
    ])
    func allowsPublicAddresses(url: String, address: String) throws {
        #expect(try check(url) == .success(.literal(IPAddress(address)!)))
    }

    // MARK: Names

    @Test(arguments: [
        ("http://LOCALHOST/", "localhost", "localhost"),
        ("http://localhost./", "localhost", "localhost"),
        ("http://foo.localhost/", "foo.localhost", "*.localhost"),
        ("http://printer.local/", "printer.local", "*.local"),
        ("http://x.internal/", "x.internal", "*.internal"),
        ("http://abc.onion/", "abc.onion", "*.onion"),
        ("http://nas.home.arpa/", "nas.home.arpa", "*.home.arpa"),
        ("http://router.lan/", "router.lan", "*.lan"),
        ("http://db.localdomain/", "db.localdomain", "*.localdomain"),
        ("http://wiki.corp/", "wiki.corp", "*.corp"),
        ("http://app.test/", "app.test", "*.test"),
        ("http://ｌｏｃａｌｈｏｓｔ/", "localhost", "localhost"),
        ("http://intranet/", "intranet", "intranet"),
        ("http://wiki/", "wiki", "single-label name"),
        ("http://metadata/", "metadata", "single-label name"),
    ])
    func refusesLocalNames(url: String, name: String, rule: String) throws {
        #expect(try check(url) == .failure(AddressRefusal(.blockedHostName(name, rule: rule))))
    }

    @Test(arguments: [
        ("https://example.com/", "example.com"),
        ("https://EXAMPLE.com./a?b#c", "example.com"),
        ("http://www.example.co.uk:80/", "www.example.co.uk"),
        ("https://xn--mnchen-3ya.de/", "xn--mnchen-3ya.de"),
        // Foundation punycodes a Unicode host, which then passes as an ASCII name.
        ("https://münchen.de/", "xn--mnchen-3ya.de"),
        ("https://localhost.example.com/", "localhost.example.com"),
        ("https://local.example/", "local.example"),
    ])
    func passesPublicNamesOnToResolution(url: String, name: String) throws {
        #expect(try check(url) == .success(.name(name)))
    }

    @Test(arguments: [
        "http://1.2.3.4.5/", "http://256.0.0.1/", "http://example.123/", "http://a..b/",
        "http://[fe80::1%25eth0]/", "http://[::ffff:1.2.3.4.5]/", "http://[1:2:3:4:5:6:7:8:9]/", "http://[v1.x]/",
        "http:/example.com/", "http:example.com", "http://a%00b/",
    ])
    func refusesInvalidHosts(url: String) throws {
        guard case .failure(let refusal) = try check(url), case .invalidHost = refusal.reason else {
            Issue.record("\(url) was not refused as an invalid host")
            return
        }
    }

    /// Hosts Foundation's `URL` refuses to parse never reach the fetcher; this pins that down, so a Foundation
    /// change that starts accepting them fails here and they get a policy test.
    @Test(arguments: [
        "http://exa mple.com/", "http://ex\\ample.com/", "http://127.0.0.1\t/", "http://a.com:+80/",
        "http://ex%zzample.com/",
    ])
    func foundationRefusesSomeHostsOutright(url: String) {
        #expect(URL(string: url) == nil)
    }

    // MARK: Scheme, user-info, port

    @Test(arguments: [
        ("ftp://example.com/", "ftp"), ("file:///etc/passwd", "file"), ("gopher://example.com:70/_x", "gopher"),
        ("data:text/plain,hi", "data"), ("ws://example.com/", "ws"), ("javascript:alert(1)", "javascript"),
        ("dict://example.com:11211/", "dict"), ("//example.com/", ""),
    ])
    func refusesOtherSchemes(url: String, scheme: String) throws {
        #expect(try check(url) == .failure(AddressRefusal(.unsupportedScheme(scheme))))
    }

    @Test func acceptsSchemesInAnyCase() throws {
        #expect(try check("HTTPS://example.com/") == .success(.name("example.com")))
    }

    @Test(arguments: [
        "http://user:pass@example.com/", "http://user@example.com/", "http://@example.com/",
        "http://:@example.com/", "http://example.com@127.0.0.1/", "http://a@b@example.com/",
    ])
    func refusesUserInfo(url: String) throws {
        #expect(try check(url) == .failure(AddressRefusal(.userInfo)))
    }

    @Test(arguments: [
        ("http://example.com:8080/", 8080), ("http://example.com:22/", 22), ("https://example.com:6379/", 6379),
        ("http://example.com:0/", 0), ("http://example.com:65536/", 65536), ("http://127.0.0.1:8080/", 8080),
    ])
    func refusesPortsNotAllowed(url: String, port: Int) throws {
        #expect(try check(url) == .failure(AddressRefusal(.portNotAllowed(port))))
    }

    @Test func allowsListedPortsAndChecksDefaultPorts() throws {
        #expect(try check("http://example.com:0080/") == .success(.name("example.com")))
        #expect(try check("http://example.com:443/") == .success(.name("example.com")))
        var policy = AddressPolicy()
        policy.allowedPorts.insert(8443)
        #expect(try check("https://example.com:8443/", with: policy) == .success(.name("example.com")))
        policy.allowedPorts = [443]
        #expect(try check("http://example.com/", with: policy) == .failure(AddressRefusal(.portNotAllowed(80))))
        #expect(try check("https://example.com/", with: policy) == .success(.name("example.com")))
    }

    // MARK: DNS answers

    @Test func vetsAPublicAnswer() {
        let answer = [IPAddress("93.184.215.14")!, IPAddress("2606:2800:21f:cb07:6820:80da:af6b:8b2c")!]
        #expect(policy.vet(host: "example.com", addresses: answer + answer) == .success(answer))
    }

    @Test func refusesAnAnswerOfBlockedAddresses() {
        let answer = [IPAddress("127.0.0.1")!, IPAddress("::1")!]
        #expect(
            policy.vet(host: "evil.example", addresses: answer)
                == .failure(AddressRefusal(.blockedAddress(IPAddress("127.0.0.1")!, rangeName: "loopback")))
        )
        let mapped = [IPAddress("::ffff:169.254.169.254")!]
        #expect(
            policy.vet(host: "evil.example", addresses: mapped)
                == .failure(AddressRefusal(.blockedAddress(mapped[0], rangeName: "link-local")))
        )
    }

    @Test(arguments: [
        ["93.184.215.14", "10.0.0.1"], ["10.0.0.1", "93.184.215.14"], ["2606:4700::1111", "fd00::1"],
        ["8.8.8.8", "::ffff:127.0.0.1"],
    ])
    func refusesTheWholeOfAMixedAnswer(texts: [String]) {
        let answer = texts.map { IPAddress($0)! }
        guard case .failure(let refusal) = policy.vet(host: "Rebind.Example.", addresses: answer),
            case .mixedAnswer(let host, let address, _) = refusal.reason
        else {
            Issue.record("\(texts) was not refused as a mixed answer")
            return
        }
        #expect(host == "rebind.example")
        #expect(policy.blockedRange(for: address) != nil)
    }

    @Test func refusesAnEmptyAnswerAndBlockedNames() {
        #expect(
            policy.vet(host: "example.com", addresses: [])
                == .failure(AddressRefusal(.noAddresses(host: "example.com")))
        )
        #expect(
            policy.vet(host: "printer.local", addresses: [IPAddress("8.8.8.8")!])
                == .failure(AddressRefusal(.blockedHostName("printer.local", rule: "*.local")))
        )
        #expect(
            policy.vet(host: "a b", addresses: [IPAddress("8.8.8.8")!]) == .failure(AddressRefusal(.invalidHost("a b")))
        )
    }

    // MARK: Allow-list

    @Test func allowListedNetworksPass() throws {
        let policy = AddressPolicy(allowList: [.network(IPNetwork("127.0.0.0/8")!)])
        #expect(try check("http://127.0.0.1/", with: policy) == .success(.literal(IPAddress("127.0.0.1")!)))
        #expect(try check("http://127.1/", with: policy) == .success(.literal(IPAddress("127.0.0.1")!)))
        #expect(
            try check("http://[::ffff:127.0.0.1]/", with: policy) == .success(.literal(IPAddress("::ffff:7f00:1")!))
        )
        // Only what is listed: ::1 and 10/8 stay blocked, and ports and schemes are still checked.
        #expect(try check("http://[::1]/", with: policy) == blocked("::1", "loopback"))
        #expect(try check("http://10.0.0.1/", with: policy) == blocked("10.0.0.1", "private network (RFC 1918)"))
        #expect(try check("http://127.0.0.1:8080/", with: policy) == .failure(AddressRefusal(.portNotAllowed(8080))))
        #expect(
            policy.vet(host: "dev.example", addresses: [IPAddress("127.0.0.1")!, IPAddress("8.8.8.8")!])
                == .success([IPAddress("127.0.0.1")!, IPAddress("8.8.8.8")!])
        )
    }

    @Test func allowListedHostsPassWhateverTheyResolveTo() throws {
        let policy = AddressPolicy(allowList: [.host("printer.local"), .host("*.corp.example"), .host("intranet")])
        #expect(try check("http://printer.local/", with: policy) == .success(.name("printer.local")))
        #expect(try check("http://INTRANET./", with: policy) == .success(.name("intranet")))
        #expect(try check("http://wiki.corp.example/", with: policy) == .success(.name("wiki.corp.example")))
        #expect(
            policy.vet(host: "wiki.corp.example", addresses: [IPAddress("10.1.2.3")!])
                == .success([IPAddress("10.1.2.3")!])
        )
        // `*.suffix` covers names below the suffix, not the suffix itself, and nothing else.
        #expect(
            policy.vet(host: "corp.example", addresses: [IPAddress("10.1.2.3")!])
                == .failure(
                    AddressRefusal(.blockedAddress(IPAddress("10.1.2.3")!, rangeName: "private network (RFC 1918)"))
                )
        )
        #expect(
            try check("http://scanner.local/", with: policy)
                == .failure(AddressRefusal(.blockedHostName("scanner.local", rule: "*.local")))
        )
        // A host rule for a name does not open an address literal.
        #expect(try check("http://127.0.0.1/", with: policy) == blocked("127.0.0.1", "loopback"))
    }

    @Test func readsAllowRulesAsWrittenOnACommandLine() {
        #expect(AllowRule("127.0.0.0/8") == .network(IPNetwork("127.0.0.0/8")!))
        #expect(AllowRule("::1") == .network(IPNetwork("::1/128")!))
        #expect(AllowRule("*.corp.example") == .host("*.corp.example"))
        #expect(AllowRule("Printer.Local") == .host("Printer.Local"))
        #expect(AllowRule("10.0.0.1/8") == nil)
        #expect(AllowRule("*") == nil)
        #expect(AllowRule("a b") == nil)
        let policy = AddressPolicy(allowList: [AllowRule("Printer.Local")!, .host("127.0.0.1")])
        #expect(policy.check(host: "printer.local") == .success(.name("printer.local")))
        #expect(policy.check(host: "127.0.0.1") == .success(.literal(IPAddress("127.0.0.1")!)))
    }

    @Test func singleLabelNamesAndBlockedNamesAreConfigurable() {
        var policy = AddressPolicy()
        policy.allowsSingleLabelHosts = true
        #expect(policy.check(host: "wiki") == .success(.name("wiki")))
        // `intranet` is also a blocked name (RFC 6762 appendix G), so it stays refused.
        #expect(
            policy.check(host: "intranet") == .failure(AddressRefusal(.blockedHostName("intranet", rule: "intranet")))
        )
        #expect(
            policy.check(host: "localhost")
                == .failure(AddressRefusal(.blockedHostName("localhost", rule: "localhost")))
        )
        policy.blockedHostNames.append(".Example.NET")
        #expect(
            policy.check(host: "www.example.net")
                == .failure(AddressRefusal(.blockedHostName("www.example.net", rule: "*.example.net")))
        )
        #expect(
            policy.check(host: "example.net")
                == .failure(AddressRefusal(.blockedHostName("example.net", rule: "example.net")))
        )
        // A blocked name only refuses whole labels: `glocal` is not below `local`, `myexample.net` not below
        // `example.net`.
        #expect(policy.check(host: "www.glocal") == .success(.name("www.glocal")))
        #expect(policy.check(host: "myexample.net") == .success(.name("myexample.net")))
    }

    // MARK: Messages

    @Test func explainsRefusalsAndHowToAllow() throws {
        let loopback = try #require(try check("http://127.1/").failureValue)
        #expect(
            loopback.description
                == "127.0.0.1 is a loopback address; SharePipe does not fetch from it. Add 127.0.0.0/8 to the address policy's allowList if you mean to."
        )
        let mapped = try #require(try check("http://[::ffff:10.1.2.3]/").failureValue)
        #expect(mapped.description.hasPrefix("::ffff:10.1.2.3 is a private network (RFC 1918) address;"))
        #expect(mapped.description.contains("Add 10.0.0.0/8 to the address policy's allowList"))
        let unique = try #require(try check("http://[fd00::1]/").failureValue)
        #expect(unique.description.hasPrefix("fd00::1 is a unique local address;"))
        #expect(unique.description.contains("Add fc00::/7 to"))
        let ietf = try #require(try check("http://192.0.0.8/").failureValue)
        #expect(ietf.description.hasPrefix("192.0.0.8 is an IETF protocol assignment address;"))
        let local = try #require(try check("http://printer.local/").failureValue)
        #expect(local.description.contains("printer.local is a local or private host name (*.local)"))
        let single = try #require(try check("http://wiki/").failureValue)
        #expect(single.description.contains("single-label host name"))
        let mixed = try #require(
            policy.vet(host: "a.example", addresses: [IPAddress("8.8.8.8")!, IPAddress("10.0.0.1")!]).failureValue
        )
        #expect(mixed.description.contains("a.example resolves to public addresses and also to 10.0.0.1"))
        #expect(mixed.description.contains("refuses the whole answer"))
        #expect(
            try check("ftp://a.example/").failureValue?.description
                == "SharePipe fetches only http and https URLs, not ftp: URLs."
        )
        #expect(
            try check("http://a.example:8080/").failureValue?.description.contains(
                "Add 8080 to the address policy's allowedPorts"
            ) == true
        )
        #expect(try check("http://u:p@a.example/").failureValue?.description.contains("user name or password") == true)
        #expect(try check("http://a..b/").failureValue?.description.contains("\"a..b\" is not a host name") == true)
    }

    /// `https://example.com:0/` was told to allow port 0, which no option takes; every bad host was
    /// told about punycode, `1.2.3.4.5` too.
    @Test("No advice that cannot be followed: port 0 is not offered for allowing, ASCII hosts get no punycode hint")
    func adviceThatWorks() throws {
        func check(_ text: String) throws -> String {
            let url = try #require(URL(string: text))
            return try #require(AddressPolicy().check(url: url).failureValue).description
        }
        let zero = try check("https://example.com:0/")
        #expect(zero.contains("Port 0 is not a port a server can listen on") && !zero.contains("allowedPorts"))
        let dotted = try check("http://1.2.3.4.5/")
        #expect(dotted.contains("is not a host name or IP address") && !dotted.contains("punycode"))
    }
}

@Suite("Address policy: how a refusal says to allow")
struct AllowanceWordingTests {
    /// `sharepipe serve` has no `--allow`: its refusals named the preview command's options.
    @Test("A refusal names the options of whatever set the policy, or the policy's properties")
    func wordingFollowsThePolicy() throws {
        var policy = AddressPolicy()
        policy.allowanceWording = AllowanceWording(
            networkOption: "--allow-fetch-from",
            portOption: "--allow-fetch-port"
        )
        let url = try #require(URL(string: "http://10.0.0.1/"))
        #expect(
            policy.check(url: url).failureValue?.description.contains("Allow it with --allow-fetch-from 10.0.0.0/8")
                == true
        )
        let port = try #require(URL(string: "http://a.example:1/"))
        #expect(
            policy.check(url: port).failureValue?.description.contains("Allow it with --allow-fetch-port 1") == true
        )
        let mixed = policy.vet(host: "a.example", addresses: [IPAddress("8.8.8.8")!, IPAddress("10.0.0.1")!])
        #expect(
            mixed.failureValue?.description.contains("Allow it with --allow-fetch-from 10.0.0.0/8 or a.example") == true
        )
        for refusal in [policy.check(url: url).failureValue, policy.check(url: port).failureValue] {
            #expect(refusal?.description.contains("--allow ") == false)
        }
    }
}

extension Result {
    var failureValue: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}

/// The cross-check between Foundation's `host` and the authority written in `absoluteString`.
struct AuthorityCrossCheckTests {
    @Test func takesTheWrittenHostOnlyWhenFoundationAgrees() {
        #expect(AddressPolicy.writtenHost(in: "Example.com:8080", agreeingWith: "example.com") == "Example.com")
        #expect(AddressPolicy.writtenHost(in: "[::1]:80", agreeingWith: "::1") == "[::1]")
        #expect(
            AddressPolicy.writtenHost(in: "xn--mnchen-3ya.de", agreeingWith: "m%C3%BCnchen.de") == "xn--mnchen-3ya.de"
        )
        #expect(AddressPolicy.writtenHost(in: "[FE80::1]", agreeingWith: "fe80::1") == "[FE80::1]")
        #expect(AddressPolicy.writtenHost(in: "example.com", agreeingWith: "127.0.0.1") == nil)
        // Case is ignored for letters only: `^` and `~` differ by the same bit as `A` and `a`.
        #expect(AddressPolicy.writtenHost(in: "a^b.example", agreeingWith: "a~b.example") == nil)
        #expect(AddressPolicy.writtenHost(in: "example.co", agreeingWith: "example.com") == nil)
        #expect(AddressPolicy.writtenHost(in: "[::1]", agreeingWith: "::2") == nil)
        #expect(AddressPolicy.writtenHost(in: "[::1", agreeingWith: "::1") == nil)
        // A punycoded authority is only taken for a host that really is Unicode.
        #expect(AddressPolicy.writtenHost(in: "xn--mnchen-3ya.de", agreeingWith: "example.com") == nil)
        #expect(AddressPolicy.rawAuthority(of: "http://a.example\\@127.0.0.1/") == "a.example")
        #expect(AddressPolicy.rawAuthority(of: "http:/a.example/") == nil)
        #expect(AddressPolicy.rawAuthority(of: "https://user@Example.com:8443?q#f") == "user@Example.com:8443")
        #expect(AddressPolicy.rawAuthority(of: "http://a.example") == "a.example")
    }
}

@Suite("Address policy: the URLs a preview hands out")
struct AddressPolicyMetadataTests {
    @Test("URLs the policy refuses are left out of metadata; the rest, and what the allow-list opens, kept")
    func withoutRefusedURLs() {
        var metadata = LinkMetadata(
            originalURL: URL(string: "https://example.com/a")!,
            url: URL(string: "https://example.com/a")!
        )
        metadata.canonicalURL = URL(string: "http://127.0.0.1/a")
        metadata.manifestURL = URL(string: "http://127.0.0.1/manifest.json")
        metadata.oEmbed = [
            OEmbedLink(url: URL(string: "http://[::1]/oembed")!, format: .json),
            OEmbedLink(url: URL(string: "https://example.com/oembed")!, format: .json),
        ]
        metadata.icons = [LinkIcon(url: URL(string: "http://localhost/i.png")!, rel: "icon")]
        metadata.images = [
            LinkMedia(url: URL(string: "http://169.254.169.254/x.png")!),
            LinkMedia(
                url: URL(string: "http://169.254.169.254/y.png")!,
                secureURL: URL(string: "https://cdn.example/y.png")
            ),
            LinkMedia(url: URL(string: "https://cdn.example/z.png")!, secureURL: URL(string: "https://10.0.0.1/z.png")),
        ]
        metadata.videos = [LinkMedia(url: URL(string: "http://example.com:8080/v.mp4")!)]
        let kept = AddressPolicy().withoutRefusedURLs(metadata)
        #expect(kept.url == metadata.url && kept.originalURL == metadata.originalURL)
        #expect(kept.canonicalURL == nil && kept.manifestURL == nil)
        #expect(kept.oEmbed.map(\.url.absoluteString) == ["https://example.com/oembed"])
        #expect(kept.icons.isEmpty)
        #expect(kept.images.map(\.url.absoluteString) == ["https://cdn.example/y.png", "https://cdn.example/z.png"])
        #expect(kept.images.allSatisfy { $0.secureURL == nil })
        #expect(kept.videos.isEmpty)

        var intranet = AddressPolicy(allowList: [AllowRule("127.0.0.0/8")!], allowedPorts: [80, 443, 8080])
        intranet.allowsSingleLabelHosts = false
        let opened = intranet.withoutRefusedURLs(metadata)
        #expect(opened.manifestURL == metadata.manifestURL)
        #expect(opened.videos.count == 1)
    }
}

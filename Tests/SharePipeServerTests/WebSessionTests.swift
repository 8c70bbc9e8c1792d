import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import SharePipeProtocol
import SharePipeServer
import Testing

/// A browser's cookie jar, just enough for the web page's forms.
struct Browser {
    var cookies: [String: String] = [:]

    var headers: HTTPFields {
        // What Chromium and Firefox send for a page.
        var headers: HTTPFields = [.accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"]
        if !cookies.isEmpty {
            headers[.cookie] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(
                separator: "; "
            )
        }
        return headers
    }

    /// Remembers (or, with `Max-Age=0`, forgets) the response's cookies; returns the raw `Set-Cookie` lines.
    @discardableResult
    mutating func receive(_ response: LiveResponse) -> [String] {
        let lines = response.headers[values: .setCookie]
        for line in lines {
            let pair = line.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
            let name = String(pair[0])
            if line.contains("Max-Age=0") {
                cookies[name] = nil
            } else {
                cookies[name] = pair.count > 1 ? String(pair[1]) : ""
            }
        }
        return lines
    }

    mutating func get(_ client: LiveClient, _ uri: String) async throws -> LiveResponse {
        let response = try await client.execute(uri: uri, method: .get, headers: headers)
        receive(response)
        return response
    }

    mutating func post(
        _ client: LiveClient,
        _ uri: String,
        _ form: [(String, String)],
        origin: String? = nil,
        fetchSite: String? = nil
    ) async throws -> LiveResponse {
        var headers = self.headers
        headers[.contentType] = "application/x-www-form-urlencoded"
        if let origin { headers[.origin] = origin }
        if let fetchSite { headers[HTTPField.Name("Sec-Fetch-Site")!] = fetchSite }
        let body = form.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }
            .joined(separator: "&")
        let response = try await client.execute(
            uri: uri,
            method: .post,
            headers: headers,
            body: ByteBuffer(string: body)
        )
        receive(response)
        return response
    }

    /// The hidden CSRF field of a page.
    static func csrf(in response: LiveResponse) -> String? {
        let html = String(buffer: response.body)
        guard let range = html.range(of: #"name="csrf" value=""#) else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }
}

@Suite("The web page's accounts: sign-up, sign-in, sessions, CSRF")
struct WebSessionTests {
    static let password = "correct horse battery"

    /// Signs `handle` up through the form and returns the signed-in browser.
    static func signUp(_ client: LiveClient, _ handle: String) async throws -> Browser {
        var browser = Browser()
        let form = try await browser.get(client, "/signup")
        let csrf = try #require(Browser.csrf(in: form))
        let response = try await browser.post(
            client,
            "/signup",
            [("csrf", csrf), ("handle", handle), ("displayName", "Grace Hopper"), ("password", password)]
        )
        #expect(response.status == .seeOther)
        #expect(response.headers[.location] == "/")
        return browser
    }

    @Test("Pages carry a strict Content-Security-Policy, and forms a CSRF cookie that scripts cannot read")
    func pageHeaders() async throws {
        try await ServerFixture.run { _, client in
            var browser = Browser()
            let page = try await browser.get(client, "/signin")
            #expect(page.status == .ok)
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            let csp = try #require(page.headers[.contentSecurityPolicy])
            #expect(csp.contains("default-src 'none'") && csp.contains("frame-ancestors 'none'"))
            let cookie = try #require(page.headers[values: .setCookie].first { $0.hasPrefix("sharepipe_csrf=") })
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
            #expect(Browser.csrf(in: page) == browser.cookies["sharepipe_csrf"])
            let css = try await browser.get(client, "/assets/sharepipe.css")
            #expect(css.status == .ok && css.headers[.contentType] == "text/css; charset=utf-8")
        }
    }

    @Test("A browser that meets an error gets a page saying what happened; the API still gets problem+json")
    func errorsAsPages() async throws {
        try await ServerFixture.run { _, client in
            var browser = try await Self.signUp(client, "Grace")
            func expectPage(_ response: LiveResponse, _ status: HTTPResponse.Status, saying words: String) {
                #expect(response.status == status)
                #expect(response.headers[.contentType] == "text/html; charset=utf-8")
                #expect(response.headers[.contentSecurityPolicy] != nil)
                let html = String(buffer: response.body)
                #expect(html.contains(words), "\(html)")
                #expect(html.contains(#"<a href="/">Back to SharePipe</a>"#))
            }
            expectPage(try await browser.get(client, "/go/zzz"), .notFound, saying: "Not found")
            expectPage(
                try await browser.get(client, "/no-such-page"),
                .notFound,
                saying: "There is no page at this address"
            )
            let home = try await browser.get(client, "/")
            let csrf = try #require(Browser.csrf(in: home))
            // A form post missing a field (a tampered or truncated form).
            let truncated = try await browser.post(client, "/signin", [("csrf", csrf), ("handle", "grace")])
            #expect(truncated.status.code >= 400 && truncated.status.code < 500)
            #expect(truncated.headers[.contentType] == "text/html; charset=utf-8")

            // The same browser asking the API, and a client asking the page, get problem+json.
            let api = try await browser.get(client, "/v1/shares/zzz")
            #expect(api.headers[.contentType] == ProblemDetails.mediaType)
            var machineHeaders = browser.headers
            machineHeaders[.accept] = "*/*"
            let machine = try await client.execute(uri: "/go/zzz", method: .get, headers: machineHeaders)
            #expect(machine.status == .notFound && machine.headers[.contentType] == ProblemDetails.mediaType)
        }
    }

    @Test("Sign up, see the home page, sign out: the old session cookie no longer works")
    func signUpAndOut() async throws {
        try await ServerFixture.run { _, client in
            var browser = try await Self.signUp(client, "Grace")
            let session = try #require(browser.cookies["sharepipe_session"])
            #expect(session.hasPrefix("spw_"))
            let home = try await browser.get(client, "/")
            #expect(home.status == .ok)
            #expect(String(buffer: home.body).contains("@grace"))
            let csrf = try #require(Browser.csrf(in: home))
            let out = try await browser.post(client, "/signout", [("csrf", csrf)])
            #expect(out.status == .seeOther && out.headers[.location] == "/signin")
            #expect(browser.cookies["sharepipe_session"] == nil)
            // Replaying the old cookie (a stolen copy) gets nothing either.
            browser.cookies["sharepipe_session"] = session
            let after = try await browser.get(client, "/")
            #expect(after.status == .seeOther && after.headers[.location] == "/signin")
        }
    }

    @Test("Sign in with the form; a wrong password shows the form again with the reason and the handle kept")
    func signIn() async throws {
        try await ServerFixture.run { _, client in
            _ = try await Self.signUp(client, "grace")
            var browser = Browser()
            let form = try await browser.get(client, "/signin")
            let csrf = try #require(Browser.csrf(in: form))
            let wrong = try await browser.post(
                client,
                "/signin",
                [("csrf", csrf), ("handle", "grace"), ("password", "nope-nope")]
            )
            #expect(wrong.status == .unauthorized)
            let page = String(buffer: wrong.body)
            #expect(page.contains("The handle or the password is wrong") && page.contains(#"value="grace""#))
            #expect(browser.cookies["sharepipe_session"] == nil)
            let right = try await browser.post(
                client,
                "/signin",
                [("csrf", csrf), ("handle", "grace"), ("password", Self.password)]
            )
            #expect(right.status == .seeOther)
            let cookie = try #require(right.headers[values: .setCookie].first { $0.hasPrefix("sharepipe_session=") })
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && !cookie.contains("Secure"))
            #expect(try await browser.get(client, "/").status == .ok)
        }
    }

    @Test("A form post without the page's token, with another token, or from another origin is refused")
    func forgedPosts() async throws {
        try await ServerFixture.run { _, client in
            _ = try await Self.signUp(client, "grace")
            var browser = Browser()
            let form = try await browser.get(client, "/signin")
            let csrf = try #require(Browser.csrf(in: form))
            let credentials = [("handle", "grace"), ("password", Self.password)]
            let missing = try await browser.post(client, "/signin", credentials)
            let other = try await browser.post(
                client,
                "/signin",
                [("csrf", "spc_" + String(repeating: "a", count: 43))] + credentials
            )
            let crossSite = try await browser.post(
                client,
                "/signin",
                [("csrf", csrf)] + credentials,
                origin: "https://evil.example"
            )
            var noCookie = Browser()
            let forged = try await noCookie.post(client, "/signin", [("csrf", csrf)] + credentials)
            for response in [missing, other, crossSite, forged] {
                #expect(response.status == .forbidden)
                #expect(String(buffer: response.body).contains("Reload the page"))
                #expect(!response.headers[values: .setCookie].contains { $0.hasPrefix("sharepipe_session=") })
            }
        }
    }

    /// Foundation's percent-decoding gives up on bytes that are not UTF-8 (`%FF`), and a check on its
    /// result let through what the form decoder, which repairs them, then read as "Eve\0\u{FFFD}".
    @Test("A form field holding a NUL is refused, whatever follows it, and nothing is stored")
    func nulInAForm() async throws {
        try await ServerFixture.run { fixture, client in
            var browser = Browser()
            let csrf = try #require(Browser.csrf(in: try await browser.get(client, "/signup")))
            for name in ["Eve%00", "Eve%00%FF", "Eve%00%c3%28"] {
                var headers = browser.headers
                headers[.contentType] = "application/x-www-form-urlencoded"
                let response = try await client.execute(
                    uri: "/signup",
                    method: .post,
                    headers: headers,
                    body: ByteBuffer(
                        string: "csrf=\(csrf)&handle=eve&displayName=\(name)&password=correct+horse+battery"
                    )
                )
                #expect(response.status == .unprocessableContent, "\(name)")
                #expect(String(buffer: response.body).contains("NUL"), "\(name)")
            }
            #expect(try await fixture.context.database.user(handle: "eve") == nil)
        }
    }

    /// The page's origin is the whole origin: `http://` and the `Host` the browser asked for (the
    /// server speaks plain HTTP), the same port. A page of another scheme or port, or of a sibling
    /// subdomain (`Sec-Fetch-Site: same-site`), is another origin and may not post.
    @Test("Without a public URL, a form post is taken from the page's own origin only: scheme, host and port")
    func postsFromTheFullOrigin() async throws {
        try await ServerFixture.run { _, client in
            _ = try await Self.signUp(client, "grace")
            let credentials = [("handle", "grace"), ("password", Self.password)]
            // The test client asks for `Host: localhost`.
            for (origin, site, status) in [
                ("http://localhost", nil, HTTPResponse.Status.seeOther),
                ("http://LOCALHOST:80", "same-origin", .seeOther),
                (nil, "none", .seeOther),
                ("https://localhost", nil, .forbidden), ("http://localhost:8080", nil, .forbidden),
                ("http://localhost", "same-site", .forbidden), ("http://localhost", "cross-site", .forbidden),
                (nil, "same-site", .forbidden), ("null", nil, .forbidden),
            ] as [(String?, String?, HTTPResponse.Status)] {
                var browser = Browser()
                let csrf = try #require(Browser.csrf(in: try await browser.get(client, "/signin")))
                let response = try await browser.post(
                    client,
                    "/signin",
                    [("csrf", csrf)] + credentials,
                    origin: origin,
                    fetchSite: site
                )
                #expect(response.status == status, "\(origin ?? "no Origin"), \(site ?? "no Sec-Fetch-Site")")
                if status == .forbidden {
                    #expect(String(buffer: response.body).contains("Reload the page"))
                    #expect(!response.headers[values: .setCookie].contains { $0.hasPrefix("sharepipe_session=") })
                }
            }
        }
    }

    /// Behind a proxy that rewrites Host, the browser's Origin is the public URL's, not the Host the
    /// server sees; every form post was refused before.
    @Test("Behind a proxy, a form post from the public URL's origin is taken; another origin is still refused")
    func postsBehindAProxy() async throws {
        try await ServerFixture.run(configure: { $0.listener.publicURL = URL(string: "https://share.example.com") }) {
            _,
            client in
            _ = try await Self.signUp(client, "grace")
            let credentials = [("handle", "grace"), ("password", Self.password)]
            for (origin, status) in [
                ("https://share.example.com", HTTPResponse.Status.seeOther),
                ("https://Share.Example.com:443", .seeOther),
                ("http://share.example.com", .forbidden), ("https://share.example.com:8443", .forbidden),
                ("https://evil.example", .forbidden),
                // The request's own Host (`localhost`) is no longer the page's origin once there is a public URL.
                ("http://localhost", .forbidden),
            ] {
                var browser = Browser()
                let csrf = try #require(Browser.csrf(in: try await browser.get(client, "/signin")))
                let response = try await browser.post(client, "/signin", [("csrf", csrf)] + credentials, origin: origin)
                #expect(response.status == status, "\(origin)")
            }
        }
    }

    @Test("Sign-up can be closed; a taken handle and a short password are refused with the reason")
    func signUpRules() async throws {
        try await ServerFixture.run(configure: { $0.web.allowSignUp = false }) { _, client in
            var browser = Browser()
            let page = try await browser.get(client, "/signup")
            #expect(page.status == .forbidden)
            #expect(String(buffer: page.body).contains("does not take new accounts"))
            let signIn = try await browser.get(client, "/signin")
            #expect(!String(buffer: signIn.body).contains("/signup"))
        }
        try await ServerFixture.run { _, client in
            var browser = Browser()
            let form = try await browser.get(client, "/signup")
            let csrf = try #require(Browser.csrf(in: form))
            let taken = try await browser.post(
                client,
                "/signup",
                [("csrf", csrf), ("handle", "ada"), ("password", Self.password)]
            )
            #expect(taken.status == .conflict)
            #expect(String(buffer: taken.body).contains("@ada belongs to someone else"))
            let short = try await browser.post(
                client,
                "/signup",
                [("csrf", csrf), ("handle", "bob"), ("password", "short")]
            )
            #expect(short.status == .unprocessableContent)
            #expect(String(buffer: short.body).contains("8–72 bytes"))
            let badHandle = try await browser.post(
                client,
                "/signup",
                [("csrf", csrf), ("handle", "no spaces"), ("password", Self.password)]
            )
            #expect(badHandle.status == .unprocessableContent)
            #expect(browser.cookies["sharepipe_session"] == nil)
        }
    }

    /// Sign-up had no limit: each post cost a bcrypt hash (on the pool SQLite's statements ran on) and
    /// made an account, so one client could stall every request and make accounts without end. A
    /// throttled form also came back without `Retry-After`.
    @Test("Sign-ups from one address stop at the sign-in limit, with Retry-After; a taken handle costs none")
    func signUpLimit() async throws {
        try await ServerFixture.run(configure: { $0.limits.signInAttemptsPerFiveMinutes = 2 }) { _, client in
            var browser = Browser()
            let csrf = try #require(Browser.csrf(in: try await browser.get(client, "/signup")))
            func signUp(_ handle: String) async throws -> LiveResponse {
                try await browser.post(
                    client,
                    "/signup",
                    [("csrf", csrf), ("handle", handle), ("password", Self.password)]
                )
            }
            // A taken handle is refused before anything is spent.
            for _ in 0..<3 { #expect(try await signUp("ada").status == .conflict) }
            #expect(try await signUp("grace").status == .seeOther)
            #expect(try await signUp("hedy").status == .seeOther)
            let held = try await signUp("joan")
            #expect(held.status == .tooManyRequests)
            #expect(Int(held.headers[.retryAfter] ?? "") ?? 0 > 0, "\(held.headers)")
            #expect(held.headers[values: .retryAfter].count == 1)
            #expect(String(buffer: held.body).contains("Too many"), "\(String(buffer: held.body))")
        }
    }

    @Test("With secure cookies on, the session and CSRF cookies carry Secure")
    func secureCookies() async throws {
        try await ServerFixture.run(configure: { $0.web.secureCookies = true }) { _, client in
            var browser = Browser()
            let page = try await browser.get(client, "/signin")
            #expect(page.headers[values: .setCookie].allSatisfy { $0.contains("Secure") })
        }
    }
}

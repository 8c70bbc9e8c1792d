import Testing

@testable import LinkPreviewCore

struct SameSiteTests {
    @Test(arguments: [
        ("example.com", "example.com"),
        ("www.Example.COM", "example.com"),
        ("a.b.example.com.", "example.com"),
        ("a..example.com", "example.com"),
        ("news.bbc.co.uk", "bbc.co.uk"),
        ("www.abc.net.au", "abc.net.au"),
        ("shop.bar.com.br", "bar.com.br"),
        ("x.co", "x.co"),
        ("a.b.example.de", "example.de"),
        ("blog.verylongname.uk", "verylongname.uk"),
        ("MÜNCHEN.de", "münchen.de"),
    ])
    func keysAHostByItsRegistrablePart(host: String, key: String) {
        #expect(SameSite.siteKey(host) == key)
    }

    @Test(arguments: ["localhost", "127.0.0.1", "10.0.0.1.", "", ".", "com."])
    func hasNoKeyForAddressesAndSingleLabels(host: String) {
        #expect(SameSite.siteKey(host) == nil)
    }
}

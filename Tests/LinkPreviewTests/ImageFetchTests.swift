import Foundation
import LinkPreview
import LinkPreviewTesting
import Testing

/// `MetadataProvider.image(at:)`, the whole-image fetch a server's image relay uses: its failures say
/// what a page's would.
@Suite("MetadataProvider: fetching an image whole")
struct ImageFetchTests {
    @Test(
        "A redirect the image cannot follow fails as a page's would",
        arguments: [
            ("/elsewhere", LinkPreviewError.Code.notAllowedURL),
            ("/nowhere", .protocolError),
            ("/loop", .tooManyRedirects),
        ]
    )
    func redirects(path: String, code: LinkPreviewError.Code) async throws {
        try await ProviderFixture.run({ request in
            switch request.path {
            case "/elsewhere": .redirect("ftp://example.com/a.png")
            case "/nowhere": .status(302)
            default: .redirect("/loop")
            }
        }) { server, provider in
            let error = await ProviderFixture.error { _ = try await provider.image(at: server.url(path)) }
            #expect(error?.code == code, "\(String(describing: error))")
        }
    }

    @Test("An image that does not arrive in time says the time it was given")
    func timeoutNamesItsOwnLimit() async throws {
        let stall = LoopbackResponse(headers: [("Content-Type", "image/png")], body: .stall([0x89, 0x50]))
        try await ProviderFixture.run({ _ in stall }) { server, provider in
            let error = await ProviderFixture.error {
                _ = try await provider.image(at: server.url("/slow.png"), timeout: .milliseconds(300))
            }
            #expect(error?.code == .timedOut, "\(String(describing: error))")
            #expect(error?.message == "The site took longer than 300 ms to answer.")
        }
    }
}

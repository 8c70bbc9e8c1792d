import ArgumentParser
import Foundation
import LinkPreviewCore
import Testing

@testable import sharepipe

struct ExtractCommandTests {
    /// A new file under the temporary directory; the caller removes it.
    static func temporaryFile(_ contents: [UInt8], suffix: String = ".html") throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString + suffix).path
        try Data(contents).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func message(of error: any Error) -> String {
        (error as? CLIError)?.description ?? ExtractCommand.message(for: error)
    }

    @Test func refusesAURLThatIsNotAbsoluteHTTP() {
        for url in ["example.com/page", "ftp://example.com/", "https://", "/relative"] {
            #expect(throws: (any Error).self, "\(url)") { try ExtractCommand.parse(["page.html", "--url", url]) }
            let message = ExtractCommand.message(for: Self.parseError(["page.html", "--url", url]))
            #expect(message.contains("--url must be an absolute http or https URL"), "\(url): \(message)")
        }
    }

    @Test func refusesAnUnknownCharsetLabel() {
        let message = ExtractCommand.message(
            for: Self.parseError(["a.html", "--url", "https://a.com/", "--charset", "klingon"])
        )
        #expect(message.contains("not an encoding label"))
    }

    @Test func saysWhatToDoWhenTheFileIsMissingOrAFolderOrNotHTML() async throws {
        let missing = try ExtractCommand.parse(["/no/such/file.html", "--url", "https://a.com/"])
        await #expect { try await missing.run() } throws: {
            Self.message(of: $0).contains("No file at '/no/such/file.html'")
        }

        let folder = try ExtractCommand.parse([NSTemporaryDirectory(), "--url", "https://a.com/"])
        await #expect { try await folder.run() } throws: { Self.message(of: $0).contains("is a folder") }

        let binary = try Self.temporaryFile(
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00],
            suffix: ".png"
        )
        defer { try? FileManager.default.removeItem(atPath: binary) }
        let notHTML = try ExtractCommand.parse([binary, "--url", "https://a.com/"])
        await #expect { try await notHTML.run() } throws: { Self.message(of: $0).contains("does not look like HTML") }
    }

    @Test func acceptsAnHTMLFile() async throws {
        let page = try Self.temporaryFile(Array("<title>Hello</title>".utf8))
        defer { try? FileManager.default.removeItem(atPath: page) }
        let command = try ExtractCommand.parse([page, "--url", "https://a.com/", "--json"])
        try await command.run()
    }

    static func parseError(_ arguments: [String]) -> any Error {
        do {
            _ = try ExtractCommand.parse(arguments)
            return CLIError("parsed")
        } catch {
            return error
        }
    }
}

struct MetadataCardTests {
    @Test func showsTheWallFirstAndTheFieldsAPersonReads() {
        let metadata = LinkMetadata(
            url: URL(string: "https://a.com/x")!,
            title: "A title",
            summary: "A summary",
            siteName: "A Site",
            images: [LinkMedia(url: URL(string: "https://a.com/i.jpg")!, width: 1200, height: 630)],
            wall: LinkWall(kind: .login, evidence: ["path /login"])
        )
        let card = MetadataCard(metadata).rendered
        #expect(card.hasPrefix("⚠ login wall"))
        #expect(card.contains("  · path /login"))
        #expect(card.contains("A title\nA summary"))
        #expect(card.contains("site       A Site"))
        #expect(card.contains("image      https://a.com/i.jpg (1200×630)"))
    }
}

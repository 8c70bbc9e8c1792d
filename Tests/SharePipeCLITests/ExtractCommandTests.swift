import ArgumentParser
import Foundation
import LinkPreviewCore
import SharePipeCLISupport
import TestSupport
import Testing

@testable import sharepipe

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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

    /// `<(cat page.html)`, a FIFO and /dev/null were refused with "You don't have permission".
    @Test func readsPipesAndDevicesAsStreams() async throws {
        let folder = try TemporaryFolder.make()
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("page.fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let writer = Thread {
            guard let handle = FileHandle(forWritingAtPath: fifo) else { return }
            handle.write(Data("<title>Through a pipe</title>".utf8))
            try? handle.close()
        }
        writer.start()
        let piped = try await SharePipeProcess.run(["extract", fifo, "--url", "https://a.com/"])
        #expect(piped.status == 0, "\(piped.output)")
        #expect(piped.output.contains("Through a pipe"), "\(piped.output)")

        let null = try await SharePipeProcess.run(["extract", "/dev/null", "--url", "https://a.com/"])
        #expect(null.status != 0)
        #expect(null.output.contains("/dev/null does not look like HTML"), "\(null.output)")
        #expect(!null.output.contains("permission"))
    }

    @Test func findsMarkupAfterLeadingWhitespaceAndPastANul() {
        let page = Array("<!doctype html><title>x\u{0}y</title>".utf8)
        #expect(HTMLSniffing.looksLikeHTML(Data(Array(repeating: UInt8(ascii: " "), count: 2000) + page)))
        #expect(
            HTMLSniffing.looksLikeHTML(
                Data([0xEF, 0xBB, 0xBF] + Array(repeating: UInt8(ascii: "\n"), count: 1100) + page)
            )
        )
        #expect(HTMLSniffing.looksLikeHTML(Data(page)))
        // Binary files stay refused: a NUL before any markup.
        #expect(
            !HTMLSniffing.looksLikeHTML(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x3C, 0x61]))
        )
        #expect(!HTMLSniffing.looksLikeHTML(Data(Array(repeating: UInt8(ascii: " "), count: 3000))))
        // Refused for a control byte, the message says so, and where.
        let control = HTMLSniffing.verdict(Data("Hi\u{01} <p>x</p>".utf8))
        #expect(control == .controlByte(0x01, offset: 2))
        #expect(control.reason == "a control byte, 0x01 at byte 2, comes before any markup, as in binary files")
        #expect(HTMLSniffing.verdict(Data("just words".utf8)).reason?.hasPrefix("no markup in the first 1 KiB") == true)
        // Nor random bytes that happen to hold `<a` before their first NUL: control bytes come first.
        #expect(!HTMLSniffing.looksLikeHTML(Data([0x9C, 0x03, 0xE1, 0x3C, 0x61, 0x7A, 0x00])))
        var state: UInt64 = 0x5EED
        let lookingLikeHTML = (0..<1000).filter { _ in
            let bytes = (0..<1024).map { _ in
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return UInt8(truncatingIfNeeded: state >> 56)
            }
            return HTMLSniffing.looksLikeHTML(Data(bytes))
        }
        #expect(lookingLikeHTML.count <= 20, "\(lookingLikeHTML.count) of 1,000 random KiB taken for HTML")
        // Text before the first tag is still a page, in ISO-2022-JP (ESC sequences) too.
        #expect(HTMLSniffing.looksLikeHTML(Data("Hello, <b>world</b>\t\r\n".utf8)))
        let iso2022JP: [UInt8] = [0x1B, 0x24, 0x42, 0x46, 0x7C, 0x4B, 0x5C, 0x1B, 0x28, 0x42]  // 日本
        #expect(HTMLSniffing.looksLikeHTML(Data(iso2022JP + Array(" <p>x</p>".utf8))))
        // UTF-16 without a BOM, when --charset says so.
        let utf16LE = Data("  <html><title>Hi</title>".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        let utf16BE = Data("<html><title>Hi</title>".utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        #expect(!HTMLSniffing.looksLikeHTML(utf16LE))
        #expect(HTMLSniffing.looksLikeHTML(utf16LE, encoding: .utf16LE))
        #expect(HTMLSniffing.looksLikeHTML(utf16BE, encoding: .utf16BE))
        // Only text that looks like UTF-16 is told to try --charset utf-16: not a gzip file, zeros
        // or random bytes, for which that advice could not help.
        #expect(HTMLSniffing.mayBeUTF16(utf16LE) && HTMLSniffing.mayBeUTF16(utf16BE))
        let gzip = Data(
            [0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03] + (0..<200).map { UInt8($0 * 37 % 251) }
        )
        #expect(!HTMLSniffing.mayBeUTF16(gzip))
        #expect(!HTMLSniffing.mayBeUTF16(Data(repeating: 0, count: 4096)))
    }

    @Test func extractsPagesThatStartWithALotOfWhitespaceOrAreUTF16() async throws {
        let spaced = try Self.temporaryFile(
            Array(repeating: UInt8(ascii: " "), count: 2000) + Array("<title>Spaced</title>".utf8)
        )
        defer { try? FileManager.default.removeItem(atPath: spaced) }
        let result = try await SharePipeProcess.run(["extract", spaced, "--url", "https://a.com/"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("Spaced"))

        let wide = try Self.temporaryFile("<title>Wide</title>".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        defer { try? FileManager.default.removeItem(atPath: wide) }
        let refused = try await SharePipeProcess.run(["extract", wide, "--url", "https://a.com/"])
        #expect(refused.status != 0)
        #expect(refused.output.contains("needs --charset utf-16le or utf-16be"), "\(refused.output)")
        let decoded = try await SharePipeProcess.run([
            "extract", wide, "--url", "https://a.com/", "--charset", "utf-16le",
        ])
        #expect(decoded.status == 0, "\(decoded.output)")
        #expect(decoded.output.contains("Wide"), "\(decoded.output)")
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

extension ExtractCommandTests {
    /// A wall's evidence names hosts percent-decoded, so a page could write escape sequences into the
    /// card: the screen turned red and the window was retitled.
    @Test func aPageCannotWriteControlCharactersToTheTerminal() async throws {
        let page = try Self.temporaryFile(
            Array(
                #"<title>Sign in</title><link rel="canonical" href="https://login.%1b%5b41m%1b%5d0%3bowned%07x/">"#
                    .utf8
            )
        )
        defer { try? FileManager.default.removeItem(atPath: page) }
        let result = try await SharePipeProcess.run(["extract", page, "--url", "https://example.com/a"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.output.contains("wall"), "\(result.output)")
        #expect(result.output.contains("login.[41m]0;ownedx"), "\(result.output)")
        #expect(
            !result.output.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || (0x7F...0x9F).contains($0.value) }
        )
    }
}

import ArgumentParser
import Foundation
import LinkPreviewCore
import SharePipeCLISupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `sharepipe extract FILE|- --url URL`: preview metadata from an HTML file, no network.
struct ExtractCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "extract",
        abstract: "Read preview metadata from an HTML file (or - for standard input).",
        discussion: """
            Nothing is fetched: relative URLs resolve against --url, which is the address the HTML came from.
            Example: curl -s https://example.com/ | sharepipe extract - --url https://example.com/
            """
    )

    @Argument(help: "The HTML file to read, or - for standard input.")
    var file: String

    @Option(help: "The URL the document came from (http or https).")
    var url: String

    @Option(help: "The charset the server declared (Content-Type), e.g. shift_jis.")
    var charset: String?

    @Flag(help: "Print LinkMetadata as JSON instead of a card.")
    var json = false

    @Flag(help: "Read the whole document instead of stopping at </head> when it has what it needs.")
    var wholeDocument = false

    /// `--url` as a browser reads it (escapes already in it kept).
    var baseURL: URL? { URLResolver.parseAbsolute(url, maxLength: .max) }

    func validate() throws {
        guard let parsed = baseURL, let scheme = parsed.scheme?.lowercased(),
            scheme == "http" || scheme == "https", parsed.host?.isEmpty == false
        else {
            throw ValidationError(
                "--url must be an absolute http or https URL, e.g. https://example.com/page (got '\(url)')."
            )
        }
        if let charset, TextEncoding.forLabel(charset) == nil {
            throw ValidationError(
                "--charset '\(charset)' is not an encoding label browsers know (try utf-8, shift_jis, windows-1252)."
            )
        }
    }

    func run() async throws {
        let data = try readInput()
        let encoding = charset.flatMap(TextEncoding.forLabel)
        let verdict = HTMLSniffing.verdict(data, encoding: encoding)
        if let reason = verdict.reason {
            let hint =
                HTMLSniffing.mayBeUTF16(data) && encoding == nil
                ? " (UTF-16 without a byte order mark needs --charset utf-16le or utf-16be)" : ""
            throw CLIError(
                "\(file == "-" ? "standard input" : file) does not look like HTML (\(reason))\(hint). "
                    + "Give an .html file."
            )
        }
        let metadata = MetadataExtractor.extract(
            from: data,
            url: baseURL!,
            transportCharset: charset,
            configuration: .init(stopsEarly: !wholeDocument)
        )
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(metadata), as: UTF8.self))
        } else {
            print(MetadataCard(metadata).rendered)
        }
    }

    /// The most `extract` reads: the extractor ignores what follows (``ExtractionLimits/maxInputBytes``).
    static let maxInputBytes = ExtractionLimits().maxInputBytes

    /// The document's first ``maxInputBytes`` bytes, from a file, standard input, or anything else
    /// that can be read as a stream (a pipe, `<(…)`, a FIFO, a character device).
    private func readInput() throws -> Data {
        if file == "-" { return try Self.read(FileHandle.standardInput, name: "standard input") }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isDirectory) else {
            throw CLIError("No file at '\(file)'. Give the path of an HTML file, or - to read standard input.")
        }
        guard !isDirectory.boolValue else { throw CLIError("'\(file)' is a folder; give an HTML file.") }
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw CLIError("Cannot read '\(file)': \(String(cString: strerror(errno))).")
        }
        return try Self.read(FileHandle(fileDescriptor: descriptor, closeOnDealloc: true), name: "'\(file)'")
    }

    /// Reads `handle` until its end or ``maxInputBytes``.
    static func read(_ handle: FileHandle, name: String, limit: Int = maxInputBytes) throws -> Data {
        var data = Data()
        do {
            while data.count < limit, let chunk = try handle.read(upToCount: min(64 << 10, limit - data.count)),
                !chunk.isEmpty
            {
                data.append(chunk)
            }
        } catch {
            throw CLIError("Cannot read \(name): \(error.localizedDescription)")
        }
        return data
    }
}

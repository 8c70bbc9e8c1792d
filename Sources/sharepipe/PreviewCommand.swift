import ArgumentParser
import Foundation
import LinkPreview
import LinkPreviewCore
import SharePipeCLISupport

/// `sharepipe preview URL…`: fetch previews the way a server would, safely, several at a time.
struct PreviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Fetch the preview of one or more links.",
        discussion: """
            Every connection goes only to public addresses (see docs/fetching.md); --allow opens more.
            Exit status: 0 when every preview was made, else the first failure's class, as Apple's
            LPError numbers them: 1 unknown, 2 fetch failed, 3 cancelled, 4 timed out, 5 not allowed.
            Example: sharepipe preview https://www.swift.org/blog/ --json
            """
    )

    @Argument(help: "The links to preview (http or https).")
    var urls: [String]

    @Flag(help: "Print one JSON object per link (JSON Lines) instead of a card.")
    var json = false

    @Flag(help: "Do not check the icon and image or read oEmbed and the web-app manifest.")
    var noSubresources = false

    @Option(parsing: .unconditional, help: "Seconds a preview may take, subresources included.")
    var timeout: Double = 30

    @Option(help: "A folder to keep previews in between runs (created if missing).")
    var cache: String?

    @Option(help: "An address range (CIDR) or host to allow even if private, e.g. 10.0.0.0/8 or wiki.corp. Repeatable.")
    var allow: [String] = []

    @Option(parsing: .unconditionalSingleValue, help: "A port to allow besides 80 and 443. Repeatable.")
    var allowPort: [Int] = []

    @Option(parsing: .unconditional, help: "How many links are fetched at the same time.")
    var concurrency: Int = 8

    @Flag(help: "Fetch again even when the cache holds a fresh preview.")
    var reload = false

    func validate() throws {
        guard !urls.isEmpty else { throw ValidationError("Give at least one link to preview.") }
        for url in urls where Self.parse(url) == nil {
            throw ValidationError(Self.whyUnreadable(url))
        }
        guard timeout >= 0.001 && timeout <= 600 else {
            throw ValidationError(
                "--timeout must be at least 0.001 and at most 600 seconds (got \(timeout.formatted()))."
            )
        }
        guard (1...256).contains(concurrency) else {
            throw ValidationError("--concurrency must be between 1 and 256 (got \(concurrency)).")
        }
        for rule in allow where AllowRule(rule) == nil {
            throw ValidationError("--allow '\(rule)' is neither a CIDR range (10.0.0.0/8) nor a host name (wiki.corp).")
        }
        for port in allowPort where !(1...65535).contains(port) {
            throw ValidationError("--allow-port \(port) is not a port (1–65535).")
        }
        if cache?.isEmpty == true { throw ValidationError("--cache needs a folder, e.g. --cache ~/.cache/sharepipe.") }
    }

    /// The cache folder at `path`, made if missing, once a file has been written to it and removed: a
    /// folder that cannot be used is said before anything is fetched, not found out entry by entry.
    static func cacheFolder(_ path: String) throws -> URL {
        let folder = URL(fileURLWithPath: path, isDirectory: true)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue {
            throw CLIError("--cache \(path) is a file, not a folder: give a folder.")
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            if let (link, target) = SymbolicLink.firstDangling(on: folder.path) {
                let what = link == folder.path ? "--cache \(path) is" : "--cache \(path): \(link) is"
                throw CLIError(
                    "\(what) a link to \(target), which does not exist: make that folder, or give another --cache."
                )
            }
            var ancestor = folder.deletingLastPathComponent()
            while ancestor.path != "/", !FileManager.default.fileExists(atPath: ancestor.path) {
                ancestor.deleteLastPathComponent()
            }
            var ancestorIsFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: ancestor.path, isDirectory: &ancestorIsFolder),
                !ancestorIsFolder.boolValue
            {
                throw CLIError("Cannot make the cache folder \(path): \(ancestor.path) is a file.")
            }
            throw CLIError(
                "Cannot make the cache folder \(path): this user may not write in \(ancestor.path). "
                    + "Give another --cache."
            )
        }
        let probe = folder.appendingPathComponent(".sharepipe-write-check-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: probe.path, contents: Data()) else {
            throw CLIError(
                "The cache folder \(path) is not writable: previews could not be kept. Give another --cache."
            )
        }
        try? FileManager.default.removeItem(at: probe)
        return folder
    }

    /// The provider's configuration from the options.
    var providerConfiguration: MetadataProvider.Configuration {
        var policy = FetchPolicy()
        policy.addresses.allowList = allow.compactMap(AllowRule.init)
        policy.addresses.allowedPorts.formUnion(allowPort)
        policy.addresses.allowanceWording = AllowanceWording(networkOption: "--allow", portOption: "--allow-port")
        return MetadataProvider.Configuration(
            timeout: .milliseconds(Int(timeout * 1000)),
            includeSubresources: !noSubresources,
            policy: policy
        )
    }

    func run() async throws {
        let cache: any MetadataCache
        if let folder = self.cache {
            // A folder that cannot be a cache is a bad argument (64), not a preview failure: 1 to 5 are
            // Apple's LPError categories.
            do {
                cache = try FileMetadataCache(directory: Self.cacheFolder(folder))
            } catch {
                let message =
                    (error as? CLIError)?.description
                    ?? "Cannot use '\(folder)' as a cache folder: \(error.localizedDescription)"
                FileHandle.standardError.write(Data("Error: \(message)\n".utf8))
                throw ExitCode.validationFailure
            }
        } else {
            cache = MemoryMetadataCache()
        }
        let provider = try await MetadataProvider(configuration: providerConfiguration, cache: cache)
        let progress = ProgressBar(total: urls.count, enabled: urls.count > 1 && !json && ProgressBar.isTerminal)
        // Each outcome is printed as soon as those before it are: one slow link does not hold back
        // the others' cards, and Ctrl-C keeps what was printed.
        var printed = 0
        let outcomes = await Self.previews(
            of: urls.compactMap(Self.parse),
            provider: provider,
            mode: reload ? .reload : .automatic,
            concurrency: concurrency,
            progress: { done in progress.update(done) },
            ready: { outcome in
                progress.clearingLine {
                    if json {
                        print(outcome.jsonLine)
                    } else {
                        if printed > 0 { print("") }
                        print(outcome.card)
                    }
                    fflush(nil)
                }
                printed += 1
            }
        )
        progress.finish()
        try await provider.shutdown()
        if let status = Self.exitStatus(for: outcomes) { throw ExitCode(status) }
    }

    /// Previews `urls`, at most `concurrency` at a time, in the order given; `ready` is given each
    /// outcome, in that order, as soon as it and those before it are known.
    static func previews(
        of urls: [URL],
        provider: MetadataProvider,
        mode: FetchMode,
        concurrency: Int,
        progress: @escaping @Sendable (Int) -> Void = { _ in },
        ready: (PreviewOutcome) -> Void = { _ in }
    ) async -> [PreviewOutcome] {
        await withTaskGroup(of: (Int, PreviewOutcome).self) { group in
            var results = [PreviewOutcome?](repeating: nil, count: urls.count)
            var next = 0
            var done = 0
            var nextReady = 0
            func start() {
                let index = next
                let url = urls[index]
                next += 1
                group.addTask {
                    do {
                        return (index, .success(url, try await provider.preview(for: url, fetch: mode)))
                    } catch let error as LinkPreviewError {
                        return (index, .failure(url, error))
                    } catch {
                        return (index, .failure(url, LinkPreviewError(.unknown, "\(error)", url: url)))
                    }
                }
            }
            while next < min(concurrency, urls.count) { start() }
            while let (index, outcome) = await group.next() {
                results[index] = outcome
                done += 1
                progress(done)
                while nextReady < results.count, let outcome = results[nextReady] {
                    ready(outcome)
                    nextReady += 1
                }
                if next < urls.count { start() }
            }
            return results.compactMap { $0 }
        }
    }

    /// 0 when every preview was made, else the first failure's category (Apple's `LPError` code).
    static func exitStatus(for outcomes: [PreviewOutcome]) -> Int32? {
        for case .failure(_, let error) in outcomes { return Int32(error.category.rawValue) }
        return nil
    }

    /// Why ``parse(_:)`` gave nil, as a sentence for the command line.
    static func whyUnreadable(_ text: String) -> String {
        if let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = url.host(percentEncoded: false)?.lowercased(), IPv4Host.read(host) == .invalid
        {
            return "'\(text)' has host \(host), which ends in a number but is not an IPv4 address; "
                + "browsers refuse it too. Check the link."
        }
        return "'\(text)' is not an http or https link, e.g. https://example.com/page."
    }

    /// The link as a browser's address bar reads it (``URLResolver/parseAbsolute(_:maxLength:)``: escapes
    /// already in it are kept), if it is an http or https URL with a host.
    static func parse(_ text: String) -> URL? {
        guard let url = URLResolver.parseAbsolute(text, maxLength: .max), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", url.host()?.isEmpty == false
        else { return nil }
        return url
    }
}

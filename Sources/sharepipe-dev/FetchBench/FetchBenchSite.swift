import Foundation
import LinkPreview
import LinkPreviewTesting

/// The corpus pages on a loopback server under many host names (all `*.bench.example`, each answering
/// one of ``addressCount`` loopback addresses), and the URLs a benchmark round fetches.
///
/// The server runs in a child process (``FetchBenchServer``), so the benchmark's memory and CPU
/// figures are the clients' own.
///
/// By default every request goes to a host of its own (`r3-17.bench.example`), as a preview server
/// sees it: links from many sites, so neither client can reuse a connection. The sites are spread over
/// 64 addresses (127.0.0.1–127.0.0.64), as sites are over many servers: a client that pins connections
/// to the address it vetted pools them by address, and with one address for everything its per-host
/// connection limit would bind as it never does on the web. With `hostCount` > 0
/// requests cycle over that many hosts instead (`site5.bench.example`), which lets a client that
/// reads whole bodies keep connections alive.
struct FetchBenchSite {
    let port: Int
    /// The server's process, whose CPU time a run reports.
    let serverPID: Int32
    let pages: CorpusPages
    /// 0: a host per request.
    let hostCount: Int
    /// Pages padded to 1 MiB with body text, for the memory figure.
    let largePageCount: Int
    /// `http` or `https`.
    let scheme: String

    /// Loopback addresses the server listens on.
    static let addressCount = 64

    /// The loopback address host name `host` answers: one of ``addressCount``, chosen by a hash of the name.
    static func address(of host: String) -> String {
        let hash = host.utf8.reduce(UInt32(2_166_136_261)) { ($0 ^ UInt32($1)) &* 16_777_619 }
        return "127.0.0.\(1 + Int(hash % UInt32(addressCount)))"
    }

    /// Starts a server answering `/p/N` with corpus page N and `/big/N` with it padded to 1 MiB.
    static func serve(pages: CorpusPages, tls: Bool, largePageCount: Int = 8) async throws -> LoopbackHTTPServer {
        let bodies = pages.pages.map(\.bytes)
        let large = pages.pages.prefix(largePageCount).map { Self.padded($0.bytes, to: 1 << 20) }
        let certificate = (Array(BenchCertificate.certificatePEM.utf8), Array(BenchCertificate.privateKeyPEM.utf8))
        return try await LoopbackHTTPServer.start(
            addresses: (1...addressCount).map { "127.0.0.\($0)" },
            tls: tls ? certificate : nil
        ) { request in
            let parts = request.path.split(separator: "/")
            guard parts.count == 2, let index = Int(parts[1]) else { return .status(404) }
            switch parts[0] {
            case "p" where bodies.indices.contains(index): return .bytes(bodies[index], contentType: "text/html")
            case "big" where large.indices.contains(index): return .bytes(large[index], contentType: "text/html")
            default: return .status(404)
            }
        }
    }

    /// The host of request `i` in round `round`.
    func host(_ i: Int, round: Int) -> String {
        hostCount > 0 ? "site\(i % hostCount).bench.example" : "r\(round)-\(i).bench.example"
    }

    /// Every host `rounds` rounds of `requests` requests name (for the raw client's `dnsOverride`).
    func hosts(rounds: [Int], requests: Int) -> Set<String> {
        Set(rounds.flatMap { round in (0..<requests).map { host($0, round: round) } })
    }

    /// Request `i` of round `round`: page `i mod pages`, with a query that makes every URL distinct
    /// (no cache or single-flight can merge two requests).
    func url(_ i: Int, round: Int) -> (url: URL, pageSize: Int) {
        let page = i % pages.pages.count
        let url = URL(string: "\(scheme)://\(host(i, round: round)):\(port)/p/\(page)?r=\(round)-\(i)")!
        return (url, pages.pages[page].bytes.count)
    }

    /// Request `i` for a 1 MiB page.
    func largeURL(_ i: Int, round: Int) -> URL {
        URL(string: "\(scheme)://\(host(i, round: round)):\(port)/big/\(i % largePageCount)?i=\(i)")!
    }

    /// `bytes` followed by paragraphs up to `size` (before the closing tags, if any).
    static func padded(_ bytes: [UInt8], to size: Int) -> [UInt8] {
        let paragraph = Array(
            "<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.</p>\n".utf8
        )
        var result = bytes
        while result.count < size { result += paragraph }
        return result
    }
}

/// Answers one loopback address (``FetchBenchSite/address(of:)``) for every `*.bench.example` name.
struct BenchResolver: HostResolver {
    func resolve(host: String) async throws -> [IPAddress] {
        guard host.hasSuffix(".bench.example") else {
            throw HostResolutionError(code: .notFound, host: host, message: "not a benchmark host")
        }
        return [IPAddress(FetchBenchSite.address(of: host))!]
    }
}

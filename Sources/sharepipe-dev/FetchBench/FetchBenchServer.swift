import Foundation
import LinkPreviewTesting
import SharePipeCLISupport

/// The benchmark's server in a child process: `sharepipe-dev bench-fetch --serve-only` started with the
/// same corpus, which prints `PORT n` and serves until its standard input closes.
final class FetchBenchServer {
    let process: Process
    let input: Pipe
    let port: Int

    /// Starts the child and waits for its port.
    init(corpus: String, tls: Bool) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["bench-fetch", "--serve-only", "--corpus", corpus] + (tls ? ["--tls"] : [])
        input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), let first = byte.first, first != 0x0A {
            line.append(first)
        }
        let text = String(decoding: line, as: UTF8.self)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            process.terminate()
            throw CLIError("The benchmark server did not start (it said '\(text)').")
        }
        self.port = port
    }

    /// Closes the child's input, which ends it, and waits.
    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// In the child: serve `pages`, print the port, and return when standard input closes.
    static func runChild(pages: CorpusPages, tls: Bool) async throws {
        let server = try await FetchBenchSite.serve(pages: pages, tls: tls)
        FileHandle.standardOutput.write(Data("PORT \(server.port)\n".utf8))
        await Task.detached { _ = FileHandle.standardInput.readDataToEndOfFile() }.value
        try await server.shutdown()
    }
}

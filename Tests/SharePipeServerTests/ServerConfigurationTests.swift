import Foundation
import LinkPreview
import Logging
import SharePipeServer
import Testing

/// A library user gets the checks `sharepipe serve` makes: the configuration refuses what the
/// server cannot run with, before anything is opened.
struct ServerConfigurationTests {
    @Test("The defaults run; a setting the server cannot run with is refused, naming it")
    func validation() throws {
        try ServerConfiguration().validate()
        var configuration = ServerConfiguration()
        configuration.limits.maxBodyBytes = 12
        #expect(
            throws: ServerConfigurationError(
                field: "limits.maxBodyBytes",
                message: "must be between 1 KiB and 16 MiB (got 12)."
            )
        ) { try configuration.validate() }
        configuration = ServerConfiguration()
        configuration.listener.trustedProxies = [IPNetwork("0.0.0.0/0")!]
        #expect { try configuration.validate() } throws: {
            ($0 as? ServerConfigurationError)?.field == "listener.trustedProxies"
        }
        configuration = ServerConfiguration()
        configuration.listener.publicURL = URL(string: "ftp://share.example.com")
        #expect { try configuration.validate() } throws: {
            ($0 as? ServerConfigurationError)?.field == "listener.publicURL"
        }
    }

    @Test("Starting a server with a setting it cannot run with fails before the database is made")
    func startChecks() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("never-\(UUID().uuidString).sqlite")
        var configuration = ServerConfiguration(database: .sqliteFile(file.path))
        configuration.workers.previewWorkers = 0
        await #expect {
            _ = try await ServerContext.start(configuration: configuration, logger: Logger(label: "test"))
        } throws: {
            ($0 as? ServerConfigurationError)?.field == "workers.previewWorkers"
        }
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }
}

public import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The credential as a JSON file readable by its owner only (mode 0600), for Linux and the command
/// line. Written through a temporary file, fsynced and renamed, so a crash leaves the old or the new
/// credential, never half of one.
public struct FileCredentialStore: CredentialStore {
    /// The file.
    public let file: URL

    /// A store in `file`, e.g. `<container>/credentials.json`.
    public init(file: URL) {
        self.file = file
    }

    public func load() throws -> ShareCredential? {
        let data: Data?
        do {
            data = try POSIXFile.read(file.path)
        } catch {
            throw CredentialStoreError("Cannot read \(file.path): \(error)", underlying: error)
        }
        guard let data else { return nil }
        do {
            return try JSONDecoder().decode(ShareCredential.self, from: data)
        } catch {
            throw CredentialStoreError(
                "\(file.path) is not a SharePipe credential. Sign in again (sharepipe login).",
                underlying: error
            )
        }
    }

    public func save(_ credential: ShareCredential) throws {
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            try POSIXFile.replace(file.path, data: try encoder.encode(credential), sync: true)
            chmod(file.path, 0o600)
            try POSIXFile.syncDirectory(file.deletingLastPathComponent().path)
        } catch {
            throw CredentialStoreError("Cannot write \(file.path): \(error)", underlying: error)
        }
    }

    public func delete() throws {
        POSIXFile.remove(file.path)
    }
}

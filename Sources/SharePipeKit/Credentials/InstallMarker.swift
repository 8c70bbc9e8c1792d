public import Foundation

/// A random id the app writes into the shared container on first launch (`install-marker`). The
/// stored credential is bound to it: deleting the app deletes the container and the marker, but the
/// keychain may keep the token; a reinstalled app writes a new marker, so the old token no longer
/// matches and is never used.
public struct InstallMarker: Sendable {
    /// The marker file.
    public let file: URL

    /// The marker of the container at `container`.
    public init(container: URL) {
        self.file = container.appendingPathComponent("install-marker")
    }

    /// The current marker, or `nil` when the app has not written one (or it was deleted), or it cannot
    /// be read now.
    public func current() -> String? {
        (try? read()) ?? nil
    }

    /// The current marker; `nil` when there is no file, or an empty one; a file that cannot be read
    /// (an I/O error, another user's, something else in its place) throws.
    private func read() throws -> String? {
        guard let data = try POSIXFile.read(file.path) else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    /// The current marker, writing a new random one first if there is none (the app, on launch).
    ///
    /// Written under a lock beside it (`install-marker.lock`), through a temporary file renamed into
    /// place: two processes establishing at once agree on one marker, and an empty file left by a
    /// write that failed (a full disk, a crash between creating and writing it) is replaced rather
    /// than read as "no marker" forever, which would make signing in impossible. A marker that cannot
    /// be read (an I/O error, too many open files) throws rather than being replaced: a new marker
    /// would make the stored credential look like another install's, and it would be wiped.
    @discardableResult
    public func establish() throws -> String {
        if let marker = try read() { return marker }
        let folder = file.deletingLastPathComponent().path
        try POSIXFile.makeFolder(folder)
        return try FileLock.withLock(file.path + ".lock") {
            if let marker = try read() { return marker }
            let marker = UUID().uuidString
            try POSIXFile.replace(file.path, data: Data(marker.utf8), sync: true)
            try POSIXFile.syncDirectory(folder)
            return marker
        }
    }

    /// Removes the marker (sign-out).
    public func remove() {
        POSIXFile.remove(file.path)
    }
}

import Foundation

extension FileMetadataCache {
    static let fileExtension = ".json"

    static func createDirectory(_ directory: URL) throws {
        try FileManager.default.createDirectory(
            at: directory,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
    }

    /// The entry files of the directory (named as ``fileURL(forKey:)`` names them).
    func listEntryFiles() -> [URL] {
        let files =
            (try? FileManager.default.contentsOfDirectory(
                at: directory,
                includingPropertiesForKeys: [.contentModificationDateKey],
                options: [.skipsHiddenFiles]
            )) ?? []
        return files.filter { Self.isEntryFileName($0.lastPathComponent) }
    }

    /// Deletes the least recently stored entry files until at most 90 % of ``maxEntries`` remain (all of
    /// them for a bound under 10).
    func prune() {
        let target = maxEntries - maxEntries / 10
        let files = listEntryFiles()
        guard files.count > target else {
            census.reset(to: files.count)
            return
        }
        let dated = files.map { file in
            let date = (try? file.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate
            return (file: file, date: date ?? .distantPast)
        }
        let oldestFirst = dated.sorted {
            $0.date != $1.date ? $0.date < $1.date : $0.file.lastPathComponent < $1.file.lastPathComponent
        }
        var remaining = files.count
        for (file, _) in oldestFirst.prefix(files.count - target) {
            // A file another process deleted meanwhile is gone all the same.
            try? FileManager.default.removeItem(at: file)
            remaining -= 1
        }
        census.reset(to: remaining)
    }

    /// Whether `name` is 16 hexadecimal digits and the extension: temporary files and strangers are not.
    static func isEntryFileName(_ name: String) -> Bool {
        guard name.hasSuffix(fileExtension) else { return false }
        let stem = name.utf8.dropLast(fileExtension.utf8.count)
        return stem.count == 16 && stem.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

import Foundation
import SharePipeKit

/// A fresh folder under the temporary directory, removed by `remove()`.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("sharepipekit-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: url) }

    func files(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url.appendingPathComponent(folder).path)) ?? []).sorted()
    }
}

extension ShareItem {
    static func link(_ path: String, at seconds: TimeInterval = Date().timeIntervalSince1970) -> ShareItem {
        ShareItem(createdAt: Date(timeIntervalSince1970: seconds), url: URL(string: "https://example.com/\(path)")!)
    }
}

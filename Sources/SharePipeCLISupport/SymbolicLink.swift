import Foundation

/// Symbolic links met on a path the user gave, for messages that name where a link leads.
package enum SymbolicLink {
    /// Where the link at `path` leads, as an absolute path (a relative target is read from the
    /// link's folder, as the system reads it); nil when `path` is not a link.
    package static func target(of path: String) -> String? {
        guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: path) else { return nil }
        if destination.hasPrefix("/") { return URL(fileURLWithPath: destination).standardized.path }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        return folder.appendingPathComponent(destination).standardized.path
    }

    /// The first link along `path` (a folder on the way, or `path` itself, with or without a
    /// trailing `/`) that leads to nothing, and where it leads; nil when there is none.
    package static func firstDangling(on path: String) -> (link: String, target: String)? {
        var prefix = URL(fileURLWithPath: "/")
        for component in URL(fileURLWithPath: path).standardized.pathComponents.dropFirst() {
            prefix.appendPathComponent(component)
            if let target = target(of: prefix.path), !FileManager.default.fileExists(atPath: prefix.path) {
                return (prefix.path, target)
            }
        }
        return nil
    }
}

import Crypto
import Foundation

extension ShareInboxReliabilityTests {
    /// The photos the chaos writers attach: writer 0 a photo of its own to each share (new bytes to
    /// upload every time) and a small photo every share of the run has; writer 1 the small photo, and
    /// every fifth share a large one instead (over one upload piece of 4 MiB, so a kill can land
    /// between its pieces and the drain resumes); writer 2 none. (Not the large one every time: its
    /// copies into the inbox would load the disk the rest of the suite runs on.)
    struct ChaosPhotos: Sendable {
        let folder: URL
        let shared: URL
        let large: URL

        init(in folder: URL) throws {
            self.folder = folder.appendingPathComponent("photos")
            try FileManager.default.createDirectory(at: self.folder, withIntermediateDirectories: true)
            shared = self.folder.appendingPathComponent("shared.jpg")
            large = self.folder.appendingPathComponent("large.jpg")
            try Data((0..<200_000).map { UInt8(truncatingIfNeeded: ($0 &* 40_503) >> 7) }).write(to: shared)
            try Data((0..<(4 << 20) + 300_000).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) })
                .write(to: large)
        }

        /// Writer 0's photo for the share `tag`: bytes no other share has.
        static func own(_ tag: String) -> Data {
            Data(tag.utf8) + Data((0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ tag.utf8.count) })
        }

        /// Which writer made `tag` (`PHASE-wN-INDEX`), and its index.
        static func writer(of tag: String) -> (writer: Int, index: Int)? {
            let parts = tag.split(separator: "-")
            guard parts.count == 3, parts[1].hasPrefix("w"), let writer = Int(parts[1].dropFirst()), let index = Int(parts[2])
            else { return nil }
            return (writer, index)
        }

        /// The files the writer of `tag` attaches (writing writer 0's own photo first).
        func files(for tag: String) -> [URL] {
            switch Self.writer(of: tag) {
            case (0, _)?:
                let own = folder.appendingPathComponent("\(tag).jpg")
                guard (try? Self.own(tag).write(to: own)) != nil else { return [shared] }
                return [own, shared]
            case (1, let index)?: return [index % 5 == 0 ? large : shared]
            default: return []
            }
        }

        /// The SHA-256s the share with note `tag` must have on the server, in order.
        func digests(for tag: String) throws -> [String] {
            let hash = ShareInboxReliabilityTests.sha256
            switch Self.writer(of: tag) {
            case (0, _)?: return [hash(Self.own(tag)), hash(try Data(contentsOf: shared))]
            case (1, let index)?: return [hash(try Data(contentsOf: index % 5 == 0 ? large : shared))]
            default: return []
            }
        }
    }

    static func sha256(_ data: Data) -> String { SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined() }
}

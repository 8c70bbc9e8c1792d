import Foundation
import HTTPTypes
import NIOCore
import SharePipeProtocol
import Testing

@testable import SharePipeServer

/// Real photos, made by Pillow and tagged by exiftool with a GPS position, a camera's make, model
/// and serial number, XMP and IPTC: what the people a share went to receive has none of it, keeps
/// the JPEG's orientation, and decodes to the same pixels (nothing was re-encoded). Checked with the
/// same two tools. `.ci/run` installs them and sets `SHAREPIPE_REQUIRE_IMAGE_TOOLS=1`, so there a
/// missing tool fails instead of skipping.
@Suite("Photos passed on without where or with what they were taken")
struct PhotoPrivacyTests {
    static let toolsRequired = ProcessInfo.processInfo.environment["SHAREPIPE_REQUIRE_IMAGE_TOOLS"] == "1"
    static let toolsAvailable: Bool =
        (try? run("/usr/bin/env", ["python3", "-c", "import PIL"])) != nil && (try? run("/usr/bin/env", ["exiftool", "-ver"])) != nil

    struct ToolFailed: Error, CustomStringConvertible {
        var description: String
    }

    @discardableResult
    static func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else { throw ToolFailed(description: "\(arguments.prefix(2)): \(text)") }
        return text
    }

    /// Makes photo.jpg, photo.png and photo.webp in `folder`, each with a GPS position and a camera.
    static func makePhotos(in folder: URL) throws -> [URL] {
        let script = #"""
            import sys
            from PIL import Image
            folder = sys.argv[1]
            image = Image.new("RGB", (64, 48))
            for x in range(64):
                for y in range(48):
                    image.putpixel((x, y), (x * 4, y * 5, (x * y) % 256))
            exif = Image.Exif()
            exif[0x010F] = "Phonemaker"          # Make
            exif[0x0110] = "Phone 15 Pro"        # Model
            exif[0x0112] = 6                     # Orientation: rotate 90 CW
            gps = exif.get_ifd(0x8825)
            gps[1] = "N"; gps[2] = (48.0, 51.0, 29.0); gps[3] = "E"; gps[4] = (2.0, 17.0, 40.0)
            image.save(folder + "/photo.jpg", "JPEG", quality=90, exif=exif)
            image.save(folder + "/photo.png", "PNG", exif=exif)
            image.save(folder + "/photo.webp", "WEBP", lossless=True, exif=exif)
            second = image.transpose(Image.Transpose.FLIP_LEFT_RIGHT)
            image.convert("P").save(folder + "/photo.gif", "GIF", save_all=True, append_images=[second.convert("P")],
                                    loop=0, duration=100, comment=b"at home, 48.858 N 2.294 E")
            """#
        try run("/usr/bin/env", ["python3", "-c", script, folder.path])
        let photos = ["jpg", "png", "webp", "gif"].map { folder.appendingPathComponent("photo.\($0)") }
        // XMP with a position too, IPTC, a serial number, a comment, a PNG text chunk.
        try run(
            "/usr/bin/env",
            ["exiftool", "-q", "-overwrite_original", "-XMP-exif:GPSLatitude=48.858", "-XMP-exif:GPSLongitude=2.294",
             "-XMP-dc:Creator=Ada", "-ExifIFD:SerialNumber=SN123456"] + photos.prefix(3).map(\.path)
        )
        // GIF has no Exif: XMP only (in an application extension) beside the comment.
        try run(
            "/usr/bin/env",
            ["exiftool", "-q", "-overwrite_original", "-XMP-exif:GPSLatitude=48.858", "-XMP-exif:GPSLongitude=2.294",
             "-XMP-dc:Creator=Ada", photos[3].path]
        )
        try run(
            "/usr/bin/env",
            ["exiftool", "-q", "-overwrite_original", "-IPTC:City=Paris", "-Comment=at home", photos[0].path]
        )
        try run("/usr/bin/env", ["exiftool", "-q", "-overwrite_original", "-PNG:Comment=at home", photos[1].path])
        return photos
    }

    /// Makes video.mp4 in `folder`: an MP4 (ftyp, moov with mvhd, mdat) that exiftool tags with a
    /// position in QuickTime's keys, in user data (`©xyz`) and in XMP, and a camera's make and model.
    static func makeVideo(in folder: URL) throws -> URL {
        let script = #"""
            import struct, sys
            def box(kind, data): return struct.pack(">I", 8 + len(data)) + kind + data
            matrix = struct.pack(">9I", 0x10000, 0, 0, 0, 0x10000, 0, 0, 0, 0x40000000)
            mvhd = box(b"mvhd", bytes(4) + struct.pack(">IIIIIH", 0, 0, 1000, 1000, 0x10000, 0x100) + bytes(10)
                       + matrix + bytes(24) + struct.pack(">I", 2))
            ftyp = box(b"ftyp", b"isom" + struct.pack(">I", 512) + b"isomiso2mp41")
            mdat = box(b"mdat", bytes(range(256)) * 64)
            open(sys.argv[1], "wb").write(ftyp + box(b"moov", mvhd) + mdat)
            """#
        let video = folder.appendingPathComponent("video.mp4")
        try run("/usr/bin/env", ["python3", "-c", script, video.path])
        try run(
            "/usr/bin/env",
            ["exiftool", "-q", "-overwrite_original", "-Keys:GPSCoordinates=48.858, 2.294, 35",
             "-UserData:GPSCoordinates=48.858, 2.294, 35", "-UserData:Make=Phonemaker", "-UserData:Model=Phone 15 Pro",
             "-XMP-exif:GPSLatitude=48.858", video.path]
        )
        return video
    }

    /// exiftool's reading of `file`: every tag, by group and name.
    static func tags(_ file: URL) throws -> [String: Any] {
        let json = try run("/usr/bin/env", ["exiftool", "-j", "-G", "-n", file.path])
        let list = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]]
        return list?.first ?? [:]
    }

    /// Whether Pillow decodes `a` and `b` to the same size and pixels.
    static func samePixels(_ a: URL, _ b: URL) throws -> Bool {
        let script = #"""
            import sys
            from PIL import Image
            a, b = Image.open(sys.argv[1]), Image.open(sys.argv[2])
            a.load(); b.load()
            frames = getattr(a, "n_frames", 1) == getattr(b, "n_frames", 1)
            print("same" if frames and a.size == b.size and a.tobytes() == b.tobytes() else "different")
            """#
        return try run("/usr/bin/env", ["python3", "-c", script, a.path, b.path]).contains("same")
    }

    @Test("CI has the tools these checks need")
    func toolsArePresentWhereRequired() {
        #expect(!Self.toolsRequired || Self.toolsAvailable, "install Pillow (pip) and exiftool (libimage-exiftool-perl)")
    }

    @Test(
        "A JPEG, a PNG, a WebP and a GIF reach the recipient without position, camera, XMP or IPTC, with the same pixels",
        .enabled(if: toolsAvailable, "needs python3 with Pillow, and exiftool"),
        arguments: TestDatabase.all
    )
    func stripped(database: TestDatabase) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("photos-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let photos = try Self.makePhotos(in: folder)
        for photo in photos {
            // The test means something only if the originals carry what must go.
            let original = try Self.tags(photo)
            #expect(original.keys.contains { $0.contains("GPS") }, "\(photo.lastPathComponent) has no GPS to remove")
        }
        try await ServerFixture.run(on: database) { fixture, client in
            let storage = fixture.context.database
            let bob = try await storage.createUser(handle: "bob", displayName: "Bob", passwordHash: nil)
            let (_, bobApp, _) = try await storage.createDevice(userID: bob.id, name: "phone")
            var references: [String] = []
            for photo in photos {
                let bytes = Array(try Data(contentsOf: photo))
                _ = try await UploadTests.announce(bytes, name: photo.lastPathComponent, token: fixture.shareToken, client)
                let sent = try await UploadTests.patch(bytes[...], of: UploadTests.sha256(bytes), at: 0, token: fixture.shareToken, client)
                #expect(try UploadTests.upload(sent)["complete"] as? Bool == true)
                references.append(#"{"sha256": "\#(UploadTests.sha256(bytes))"}"#)
            }
            let created = try await UploadTests.share(
                #"{"url": "https://example.com/holiday", "recipients": ["@bob"], "attachments": [\#(references.joined(separator: ","))]}"#,
                token: fixture.shareToken,
                client
            )
            let id = try #require((try ServerFixture.json(created)["share"] as? [String: Any])?["id"] as? String)
            for (index, photo) in photos.enumerated() {
                let served = try await client.executeOnItsOwnConnection(
                    uri: "/v1/shares/\(id)/attachments/\(index)",
                    method: .get,
                    headers: ServerFixture.headers(token: bobApp, json: false)
                )
                #expect(served.head.status == .ok)
                #expect(served.head.headerFields[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
                let file = folder.appendingPathComponent("served-\(photo.lastPathComponent)")
                try Data(served.body.readableBytesView).write(to: file)
                let tags = try Self.tags(file)
                let leaked = tags.keys.filter { key in
                    ["GPS", "Make", "Model", "SerialNumber", "XMP", "IPTC", "Comment", "Creator"].contains { key.contains($0) }
                }
                #expect(leaked.isEmpty, "\(photo.lastPathComponent) passed on \(leaked.sorted())")
                #expect(try Self.samePixels(photo, file), "\(photo.lastPathComponent) decodes differently")
                if photo.pathExtension == "jpg" {
                    #expect(tags["EXIF:Orientation"] as? Int == 6, "the orientation is kept: \(tags)")
                }
            }
            // Bob's conversation with Ada shows the message with its files, and where to read them.
            let bobsConversations = try await storage.conversations(userID: bob.id, before: nil, limit: 10)
            let conversation = try #require(bobsConversations.first)
            let view = try await client.execute(
                uri: "/v1/conversations/\(conversation.id.uuidString)",
                method: .get,
                headers: ServerFixture.headers(token: bobApp, json: false)
            )
            let message = try #require((try ServerFixture.json(view)["messages"] as? [[String: Any]])?.first)
            #expect(message["shareID"] as? String == id)
            #expect((message["attachments"] as? [[String: Any]])?.compactMap { $0["contentType"] as? String }
                == ["image/jpeg", "image/png", "image/webp", "image/gif"])
            // Someone the share did not go to gets nothing.
            let cat = try await storage.createUser(handle: "cat", displayName: "Cat", passwordHash: nil)
            let (_, catApp, _) = try await storage.createDevice(userID: cat.id, name: "phone")
            let refused = try await client.execute(
                uri: "/v1/shares/\(id)/attachments/0",
                method: .get,
                headers: ServerFixture.headers(token: catApp, json: false)
            )
            #expect(refused.head.status == .notFound)
        }
    }

    @Test("A video passes on without where or with what it was made, every other byte where it was", arguments: TestDatabase.all)
    func videoStripped(database: TestDatabase) async throws {
        guard Self.toolsAvailable || Self.toolsRequired else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("video-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let video = try Self.makeVideo(in: folder)
        let original = try Self.tags(video)
        #expect(original.keys.contains { $0.contains("GPS") }, "the video has no GPS to remove: \(original)")
        let bytes = Array(try Data(contentsOf: video))
        try await ServerFixture.run(on: database) { fixture, client in
            let (id, bobApp) = try await UploadTests.shareFileWithBob(bytes, name: "clip.mp4", contentType: "video/mp4", fixture, client)
            let served = try await client.executeOnItsOwnConnection(
                uri: "/v1/shares/\(id)/attachments/0",
                method: .get,
                headers: ServerFixture.headers(token: bobApp, json: false)
            )
            #expect(served.head.status == .ok)
            #expect(served.head.headerFields[.contentDisposition]?.hasPrefix("attachment") == true)
            let received = Array(served.body.readableBytesView)
            let file = folder.appendingPathComponent("served.mp4")
            try Data(received).write(to: file)
            let tags = try Self.tags(file)
            let leaked = tags.keys.filter { key in ["GPS", "Make", "Model", "XMP"].contains { key.contains($0) } }
            #expect(leaked.isEmpty, "the video passed on \(leaked.sorted())")
            #expect(!tags.keys.contains { $0.contains("Warning") }, "exiftool reads it as a whole MP4: \(tags)")
            // Nothing moved: the same size, and the media bytes where they were.
            #expect(received.count == bytes.count)
            let mdat = try #require(bytes.indices.first { bytes[$0...].starts(with: Array("mdat".utf8)) })
            #expect(received[mdat...] == bytes[mdat...])
        }
    }

}

import Foundation
import HTTPTypes
import NIOCore
import SharePipeProtocol
import Testing

@testable import SharePipeServer

/// A video player seeks with range requests: a shared file answers `Range` with those bytes of
/// what the viewer receives (the stripped file), 206 and `Content-Range`; a range past the end is
/// 416 problem+json; a range it cannot take, or an `If-Range` for other bytes, gets the whole file.
@Suite("Range requests for shared files")
struct FileRangeTests {
    @Test(
        "A Range header is read as RFC 9110 writes it; anything else is ignored",
        arguments: [
            ("bytes=0-99", ByteRangeRequest.from(0, through: 99)),
            ("bytes=100-", .from(100, through: nil)),
            ("bytes=-500", .suffix(500)),
            ("Bytes=5-9", .from(5, through: 9)),
            (" bytes= 5-9 ", .from(5, through: 9)),
            ("bytes=0-0", .from(0, through: 0)),
            ("bytes=9-5", nil),
            ("bytes=0-1,5-9", nil),
            ("items=0-9", nil),
            ("bytes=", nil),
            ("bytes=-", nil),
            ("bytes=a-9", nil),
            ("bytes=0x1-9", nil),
            ("bytes=99999999999999999999-", nil),
        ] as [(String, ByteRangeRequest?)]
    )
    func parse(header: String, expected: ByteRangeRequest?) {
        #expect(ByteRangeRequest(header: header) == expected)
    }

    @Test("A range names the bytes of a file of its size that exist")
    func bytes() {
        #expect(ByteRangeRequest.from(0, through: 99).bytes(of: 50) == 0..<50)
        #expect(ByteRangeRequest.from(10, through: nil).bytes(of: 50) == 10..<50)
        #expect(ByteRangeRequest.from(50, through: nil).bytes(of: 50) == nil)
        #expect(ByteRangeRequest.suffix(10).bytes(of: 50) == 40..<50)
        #expect(ByteRangeRequest.suffix(99).bytes(of: 50) == 0..<50)
        #expect(ByteRangeRequest.suffix(0).bytes(of: 50) == nil)
        #expect(ByteRangeRequest.from(0, through: 0).bytes(of: 0) == nil)
    }

    @Test("A slice of a stripping plan makes exactly those bytes of what the plan makes")
    func slice() {
        let stored = (0..<200).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let plan: [MetadataStripping.Piece] = [.copy(0..<20), .bytes(Array(repeating: 0, count: 30)), .copy(50..<120), .bytes([1, 2, 3]), .copy(150..<200)]
        func bytes(of pieces: [MetadataStripping.Piece]) -> [UInt8] {
            pieces.flatMap { piece -> [UInt8] in
                switch piece {
                case .copy(let range): Array(stored[Int(range.lowerBound)..<Int(range.upperBound)])
                case .bytes(let bytes): bytes
                }
            }
        }
        let whole = bytes(of: plan)
        for _ in 0..<500 {
            let start = Int.random(in: 0..<whole.count)
            let end = Int.random(in: start...whole.count)
            #expect(bytes(of: plan.slice(Int64(start)..<Int64(end))) == Array(whole[start..<end]))
        }
    }

    /// A small MP4 whose user data says where it was made: the viewer's copy is stripped, so ranges
    /// are of the stripped bytes.
    static func video() -> [UInt8] {
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
            let size = UInt32(8 + payload.count)
            return [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)]
                + Array(type.utf8) + payload
        }
        let media = (0..<60_000).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) }
        return box("ftyp", Array("isom".utf8) + [0, 0, 2, 0] + Array("isommp41".utf8))
            + box("moov", box("udta", box("\u{A9}xyz", Array("+48.8584+002.2945/".utf8))) + box("trak", box("tkhd", Array(repeating: 0, count: 84))))
            + box("mdat", media)
    }

    @Test("A shared video answers range requests with the bytes its viewer would get whole", arguments: TestDatabase.all)
    func rangesOfASharedVideo(database: TestDatabase) async throws {
        let bytes = Self.video()
        try await ServerFixture.run(on: database) { fixture, client in
            let (id, bobApp) = try await UploadTests.shareFileWithBob(bytes, name: "clip.mp4", contentType: "video/mp4", fixture, client)
            let sha = UploadTests.sha256(bytes)
            func get(_ extra: [(HTTPField.Name, String)] = []) async throws -> LiveResponse {
                var headers = ServerFixture.headers(token: bobApp, json: false)
                for (name, value) in extra { headers[name] = value }
                return try await client.executeOnItsOwnConnection(uri: "/v1/shares/\(id)/attachments/0", method: .get, headers: headers)
            }
            let whole = try await get()
            #expect(whole.head.status == .ok)
            #expect(whole.head.headerFields[.acceptRanges] == "bytes")
            let served = Array(whole.body.readableBytesView)
            #expect(served.count == bytes.count)
            #expect(served != bytes, "the position is blanked in what Bob gets")
            let tag = try #require(whole.head.headerFields[.eTag])
            #expect(tag == "\"\(sha).stripped\"")

            // A player's first request, a seek into the media, the end: each the same bytes as the whole.
            let size = served.count
            for (range, expected) in [("bytes=0-1", 0..<2), ("bytes=40-4095", 40..<4096), ("bytes=30000-", 30000..<size), ("bytes=-100", (size - 100)..<size)] {
                let part = try await get([(.range, range)])
                #expect(part.head.status == .partialContent, "\(range)")
                #expect(part.head.headerFields[.contentRange] == "bytes \(expected.lowerBound)-\(expected.upperBound - 1)/\(size)")
                #expect(part.head.headerFields[.contentLength] == String(expected.count))
                #expect(Array(part.body.readableBytesView) == Array(served[expected]), "\(range)")
            }
            // Past the end: 416 with the size, as problem+json.
            let past = try await get([(.range, "bytes=\(size)-")])
            #expect(past.head.status == .rangeNotSatisfiable)
            #expect(past.head.headerFields[.contentRange] == "bytes */\(size)")
            #expect(try ServerFixture.json(past)["type"] as? String == "https://sharepipe.dev/problems/range-not-satisfiable")
            // Several ranges, or an If-Range for other bytes: the whole file.
            #expect(try await get([(.range, "bytes=0-1,5-6")]).head.status == .ok)
            let stale = try await get([(.range, "bytes=0-1"), (.ifRange, "\"\(sha)\"")])
            #expect(stale.head.status == .ok && stale.body.readableBytes == size)
            #expect(try await get([(.range, "bytes=0-1"), (.ifRange, tag)]).head.status == .partialContent)
        }
    }
}

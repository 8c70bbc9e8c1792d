/// What other people get of a photo: its pixels, never where it was taken or with what. A plan of
/// the bytes to pass on — ranges of the stored file copied as they are, and a few bytes written anew
/// — made by reading only the file's structure (segment and chunk headers), so the pixels are never
/// decoded or re-encoded and a 25 MiB photo is streamed, not held.
///
/// | type | removed | kept |
/// |---|---|---|
/// | JPEG | APP1 (Exif, XMP), APP3–APP13 and APP15 (IPTC, vendors), comments | JFIF (APP0), ICC profile (APP2), Adobe (APP14), every image segment; the Exif orientation, written as the only tag |
/// | PNG | `eXIf`, `tEXt`, `zTXt`, `iTXt`, `tIME`, anything after `IEND` | every other chunk, as it is (CRCs intact) |
/// | WebP | `EXIF` and `XMP ` chunks (and their `VP8X` flags) | every other chunk |
/// | GIF | comment extensions, application extensions but the looping ones (XMP lives in one) | the screen, colour tables, images, their control and plain-text extensions, the loop count |
/// | MP4, QuickTime | the contents of `udta`, `meta` and `uuid` boxes at the top, in `moov` and in each `trak` (each becomes a `free` box of zeros, the same size) | every other byte where it was, so the sample tables' offsets stay true |
///
/// Other types have no plan: the server passes them on as they are, as downloads.
enum MetadataStripping {
    /// A piece of the bytes passed on.
    enum Piece: Equatable, Sendable {
        /// These bytes of the stored file.
        case copy(Range<Int64>)
        /// These bytes, written anew.
        case bytes([UInt8])

        var count: Int64 {
            switch self {
            case .copy(let range): range.upperBound - range.lowerBound
            case .bytes(let bytes): Int64(bytes.count)
            }
        }
    }

    /// Reads `count` bytes of the stored file from `offset` (fewer at its end).
    typealias Reader = (_ offset: Int64, _ count: Int) async throws -> [UInt8]

    /// The most segments or chunks walked before the plan gives up (a file made to be slow).
    static let maxParts = 10_000

    /// The plan for a file of `contentType` and `size`, or nil when the type has none or the file's
    /// structure is not what its type says (then it is not passed on as an image).
    /// The types that have a plan.
    static let strippedTypes: Set<String> = ["image/jpeg", "image/png", "image/webp", "image/gif", "video/mp4", "video/quicktime"]

    static func plan(contentType: String, size: Int64, read: @escaping Reader) async throws -> [Piece]? {
        switch contentType {
        case "video/mp4", "video/quicktime": try await quickTime(size: size, read: read)
        case "image/jpeg": try await jpeg(size: size, read: read)
        case "image/png": try await png(size: size, read: read)
        case "image/webp": try await webp(size: size, read: read)
        case "image/gif": try await gif(size: size, read: BufferedReader(read))
        default: nil
        }
    }

    // MARK: JPEG

    static func jpeg(size: Int64, read: Reader) async throws -> [Piece]? {
        guard try await read(0, 2) == [0xFF, 0xD8] else { return nil }
        var pieces: [Piece] = [.copy(0..<2)]
        var orientation: UInt16?
        var insertAt = 1  // after SOI, or after APP0 when it comes first
        var position: Int64 = 2
        for part in 0..<maxParts {
            let head = try await read(position, 4)
            guard head.count >= 2, head[0] == 0xFF else { return nil }
            let marker = head[1]
            if marker == 0xFF {  // a fill byte
                position += 1
                continue
            }
            if marker == 0xDA {  // start of scan: the image data, and everything after, as it is
                pieces.append(.copy(position..<size))
                if let orientation, orientation != 1 { pieces.insert(.bytes(exifOrientation(orientation)), at: insertAt) }
                return pieces
            }
            if (0xD0...0xD7).contains(marker) || marker == 0x01 {  // no length
                pieces.append(.copy(position..<position + 2))
                position += 2
                continue
            }
            guard head.count == 4 else { return nil }
            let length = Int64(head[2]) << 8 | Int64(head[3])
            guard length >= 2, position + 2 + length <= size else { return nil }
            let segment = position..<position + 2 + length
            switch marker {
            case 0xE0, 0xE2, 0xEE:
                pieces.append(.copy(segment))
                if marker == 0xE0 && part == 0 { insertAt = 2 }
            case 0xE1:
                if orientation == nil {
                    let body = try await read(position + 4, Int(min(length - 2, 64 << 10)))
                    orientation = exifOrientation(in: body)
                }
            case 0xE3...0xEF, 0xFE:
                break  // IPTC, vendors' segments, comments
            default:
                pieces.append(.copy(segment))
            }
            position = segment.upperBound
        }
        return nil
    }

    /// The Orientation tag (0x0112) of IFD0 in an APP1 Exif body (`Exif\0\0` and a TIFF structure).
    static func exifOrientation(in body: [UInt8]) -> UInt16? {
        guard body.count >= 14, body.starts(with: Array("Exif".utf8) + [0, 0]) else { return nil }
        let tiff = Array(body[6...])
        let big: Bool
        switch (tiff[0], tiff[1]) {
        case (0x4D, 0x4D): big = true
        case (0x49, 0x49): big = false
        default: return nil
        }
        func u16(_ at: Int) -> UInt16? {
            guard at >= 0, at + 2 <= tiff.count else { return nil }
            return big ? UInt16(tiff[at]) << 8 | UInt16(tiff[at + 1]) : UInt16(tiff[at + 1]) << 8 | UInt16(tiff[at])
        }
        func u32(_ at: Int) -> Int? {
            guard let high = u16(big ? at : at + 2), let low = u16(big ? at + 2 : at) else { return nil }
            return Int(high) << 16 | Int(low)
        }
        guard let ifd = u32(4), let count = u16(ifd) else { return nil }
        for index in 0..<Int(min(count, 512)) {
            let entry = ifd + 2 + index * 12
            guard let tag = u16(entry) else { return nil }
            if tag == 0x0112, u16(entry + 2) == 3, let value = u16(entry + 8), (1...8).contains(value) { return value }
        }
        return nil
    }

    /// An APP1 segment whose Exif holds one tag: Orientation.
    static func exifOrientation(_ orientation: UInt16) -> [UInt8] {
        var tiff: [UInt8] = [0x4D, 0x4D, 0x00, 0x2A, 0x00, 0x00, 0x00, 0x08]  // big-endian, IFD0 at 8
        tiff += [0x00, 0x01]  // one entry
        tiff += [0x01, 0x12, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, UInt8(orientation >> 8), UInt8(orientation & 0xFF), 0, 0]
        tiff += [0, 0, 0, 0]  // no next IFD
        let body = Array("Exif".utf8) + [0, 0] + tiff
        let length = body.count + 2
        return [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + body
    }

    // MARK: PNG

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let pngDropped: Set<String> = ["eXIf", "tEXt", "zTXt", "iTXt", "tIME"]

    static func png(size: Int64, read: Reader) async throws -> [Piece]? {
        guard try await read(0, 8) == pngSignature else { return nil }
        var pieces: [Piece] = [.copy(0..<8)]
        var position: Int64 = 8
        for _ in 0..<maxParts {
            let head = try await read(position, 8)
            guard head.count == 8 else { return nil }
            let length = Int64(head[0]) << 24 | Int64(head[1]) << 16 | Int64(head[2]) << 8 | Int64(head[3])
            let type = String(decoding: head[4..<8], as: UTF8.self)
            let chunk = position..<position + 12 + length
            guard chunk.upperBound <= size else { return nil }
            if !pngDropped.contains(type) { pieces.append(.copy(chunk)) }
            if type == "IEND" { return pieces }
            position = chunk.upperBound
        }
        return nil
    }

    // MARK: WebP

    static func webp(size: Int64, read: Reader) async throws -> [Piece]? {
        let header = try await read(0, 12)
        guard header.count == 12, header.starts(with: Array("RIFF".utf8)), Array(header[8..<12]) == Array("WEBP".utf8)
        else { return nil }
        var kept: [Piece] = []
        var position: Int64 = 12
        for _ in 0..<maxParts where position < size {
            let head = try await read(position, 9)
            guard head.count >= 8 else { return nil }
            let fourCC = String(decoding: head[0..<4], as: UTF8.self)
            let length = Int64(head[4]) | Int64(head[5]) << 8 | Int64(head[6]) << 16 | Int64(head[7]) << 24
            let end = position + 8 + length + (length & 1)
            guard end <= size || position + 8 + length == size else { return nil }
            let chunk = position..<min(end, size)
            switch fourCC {
            case "EXIF", "XMP ":
                break
            case "VP8X" where head.count == 9:
                // Its flags no longer announce the metadata left out.
                kept.append(.bytes(Array(head[0..<8]) + [head[8] & ~0x0C]))
                kept.append(.copy(position + 9..<chunk.upperBound))
            default:
                kept.append(.copy(chunk))
            }
            position = chunk.upperBound
        }
        let riffSize = 4 + kept.reduce(0) { $0 + $1.count }
        guard riffSize <= Int64(UInt32.max) else { return nil }
        let size32 = UInt32(riffSize)
        let riff = Array("RIFF".utf8) + [UInt8(size32 & 0xFF), UInt8(size32 >> 8 & 0xFF), UInt8(size32 >> 16 & 0xFF), UInt8(size32 >> 24)]
        return [.bytes(riff + Array("WEBP".utf8))] + kept
    }

    // MARK: GIF

    /// Application extensions kept: the loop count of an animation (`NETSCAPE2.0`, `ANIMEXTS1.0`).
    static let gifKeptApplications: Set<String> = ["NETSCAPE2.0", "ANIMEXTS1.0"]

    static func gif(size: Int64, read: BufferedReader) async throws -> [Piece]? {
        let header = try await read.bytes(0, 13)
        guard header.count == 13, header.starts(with: Array("GIF8".utf8)) else { return nil }
        var position: Int64 = 13
        if header[10] & 0x80 != 0 { position += 3 << (Int64(header[10] & 0x07) + 1) }  // global colour table
        var pieces: [Piece] = [.copy(0..<position)]
        for _ in 0..<maxParts {
            guard let introducer = try await read.byte(position) else { return nil }
            switch introducer {
            case 0x3B:  // trailer: the end (anything after it is not passed on)
                pieces.append(.copy(position..<position + 1))
                return pieces
            case 0x21:
                guard let label = try await read.byte(position + 1) else { return nil }
                var kept = label != 0xFE  // comments go
                if label == 0xFF {
                    let identifier = try await read.bytes(position + 2, 12)
                    kept =
                        identifier.count == 12 && identifier[0] == 11
                        && gifKeptApplications.contains(String(decoding: identifier[1...], as: UTF8.self))
                }
                guard let end = try await subBlocksEnd(from: position + 2, size: size, read: read) else { return nil }
                if kept { pieces.append(.copy(position..<end)) }
                position = end
            case 0x2C:  // an image: its descriptor, local colour table, LZW code size and data
                let descriptor = try await read.bytes(position, 10)
                guard descriptor.count == 10 else { return nil }
                var data = position + 10
                if descriptor[9] & 0x80 != 0 { data += 3 << (Int64(descriptor[9] & 0x07) + 1) }
                guard let end = try await subBlocksEnd(from: data + 1, size: size, read: read) else { return nil }
                pieces.append(.copy(position..<end))
                position = end
            default:
                return nil
            }
        }
        return nil
    }

    /// Where the sub-blocks starting at `position` end (after their zero-length terminator).
    private static func subBlocksEnd(from position: Int64, size: Int64, read: BufferedReader) async throws -> Int64? {
        var position = position
        // A GIF of `size` bytes has at most `size` sub-blocks.
        while position < size {
            guard let length = try await read.byte(position) else { return nil }
            position += 1 + Int64(length)
            if length == 0 { return position }
        }
        return nil
    }

    /// Reads through a window of the file, so that walking thousands of small blocks costs a read
    /// per window, not per block.
    final class BufferedReader {
        private let read: Reader
        private var window: [UInt8] = []
        private var start: Int64 = 0
        static let windowSize = 256 << 10

        init(_ read: @escaping Reader) { self.read = read }

        func byte(_ offset: Int64) async throws -> UInt8? {
            try await bytes(offset, 1).first
        }

        func bytes(_ offset: Int64, _ count: Int) async throws -> [UInt8] {
            if offset < start || offset + Int64(count) > start + Int64(window.count) {
                window = try await read(offset, max(count, Self.windowSize))
                start = offset
            }
            let lower = Int(offset - start)
            return Array(window[lower..<min(window.count, lower + count)])
        }
    }
}

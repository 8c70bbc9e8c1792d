/// Byte fixtures for the sniffing tests, built field by field the way the formats lay them out.
enum SniffingFixtures {
    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }
    static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func be32(_ value: Int) -> [UInt8] { be16(value >> 16 & 0xFFFF) + be16(value & 0xFFFF) }
    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func le24(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + [UInt8(value >> 16 & 0xFF)] }
    static func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16 & 0xFFFF) }

    // MARK: Images

    static func png(width: Int, height: Int, appleCgBI: Bool = false) -> [UInt8] {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let cgbi = appleCgBI ? be32(4) + ascii("CgBI") + [0x50, 0x00, 0x20, 0x06] + be32(0) : []
        let ihdr = be32(13) + ascii("IHDR") + be32(width) + be32(height) + [8, 6, 0, 0, 0] + be32(0)
        let iend = be32(0) + ascii("IEND") + [0xAE, 0x42, 0x60, 0x82]
        return signature + cgbi + ihdr + iend
    }

    static func gif(width: Int, height: Int) -> [UInt8] {
        ascii("GIF89a") + le16(width) + le16(height) + [0xF0, 0x00, 0x00] + [0, 0, 0, 0xFF, 0xFF, 0xFF]
            + [0x2C] + le16(0) + le16(0) + le16(width) + le16(height) + [0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B]
    }

    /// A baseline (or progressive) JPEG: APP0, an optional APP1 of `exifBytes`, DQT, optionally DHT before
    /// the frame header, SOFn, DHT, SOS, a little scan data, EOI.
    static func jpeg(
        width: Int,
        height: Int,
        progressive: Bool = false,
        exifBytes: Int = 0,
        huffmanTablesFirst: Bool = false,
        orientation: (value: Int, littleEndian: Bool)? = nil
    ) -> [UInt8] {
        let app0 = [0xFF, 0xE0] + be16(16) + ascii("JFIF") + [0, 1, 1, 0] + be16(1) + be16(1) + [0, 0]
        var app1: [UInt8] = []
        if let orientation {
            // A TIFF header, then IFD0 with one entry: Orientation (0x0112), SHORT, 1 value.
            let le = orientation.littleEndian
            let u16 = le ? le16 : be16
            let u32 = le ? le32 : be32
            let tiff =
                ascii(le ? "II" : "MM") + u16(42) + u32(8) + u16(1) + u16(0x0112) + u16(3) + u32(1)
                + u16(orientation.value) + [0, 0] + u32(0)
            app1 += [0xFF, 0xE1] + be16(2 + 6 + tiff.count) + ascii("Exif") + [0, 0] + tiff
        }
        var remaining = exifBytes
        while remaining > 0 {
            let chunk = min(remaining, 65_000)
            app1 +=
                [0xFF, 0xE1] + be16(chunk + 2) + ascii("Exif") + [0, 0] + [UInt8](repeating: 0x4D, count: chunk - 6)
            remaining -= chunk
        }
        let dqt = [0xFF, 0xDB] + be16(67) + [0] + [UInt8](repeating: 1, count: 64)
        let dht = [0xFF, 0xC4] + be16(31) + [0] + [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0] + Array(0...11)
        let sof =
            [0xFF, progressive ? 0xC2 : 0xC0] + be16(17) + [8] + be16(height) + be16(width)
            + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        let sos = [0xFF, 0xDA] + be16(12) + [3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3F, 0] + [0x12, 0x34, 0xFF, 0x00, 0x56]
        let tables = huffmanTablesFirst ? dqt + dht + sof : dqt + sof + dht
        return [0xFF, 0xD8] + app0 + app1 + tables + sos + [0xFF, 0xD9]
    }

    static func riff(_ form: String, _ chunks: [UInt8]) -> [UInt8] {
        ascii("RIFF") + le32(chunks.count + 4) + ascii(form) + chunks
    }

    static func webpLossy(width: Int, height: Int) -> [UInt8] {
        let frame =
            [0x50, 0x09, 0x00, 0x9D, 0x01, 0x2A] + le16(width) + le16(height) + [UInt8](repeating: 0, count: 10)
        return riff("WEBP", ascii("VP8 ") + le32(frame.count) + frame)
    }

    static func webpLossless(width: Int, height: Int) -> [UInt8] {
        let bits = (width - 1) | (height - 1) << 14 | 1 << 28
        let data = [0x2F] + le32(bits) + [UInt8](repeating: 0, count: 11)
        return riff("WEBP", ascii("VP8L") + le32(data.count) + data)
    }

    static func webpExtended(width: Int, height: Int) -> [UInt8] {
        let data = [0x10, 0, 0, 0] + le24(width - 1) + le24(height - 1)
        return riff("WEBP", ascii("VP8X") + le32(data.count) + data + ascii("ALPH") + le32(2) + [0, 0])
    }

    static func bmp(width: Int, height: Int, coreHeader: Bool = false) -> [UInt8] {
        let dib: [UInt8] =
            coreHeader
            ? le32(12) + le16(width) + le16(height) + le16(1) + le16(24)
            : le32(40) + le32(width) + le32(height) + le16(1) + le16(24) + [UInt8](repeating: 0, count: 24)
        let pixels = [UInt8](repeating: 0x7F, count: 16)
        return ascii("BM") + le32(14 + dib.count + pixels.count) + [0, 0, 0, 0] + le32(14 + dib.count) + dib + pixels
    }

    /// An icon (or cursor) directory with one entry per size; 256 is stored as 0.
    static func ico(sizes: [(Int, Int)], cursor: Bool = false) -> [UInt8] {
        var bytes: [UInt8] = [0, 0] + le16(cursor ? 2 : 1) + le16(sizes.count)
        for (index, (width, height)) in sizes.enumerated() {
            bytes +=
                [UInt8(width & 0xFF), UInt8(height & 0xFF), 0, 0] + le16(1) + le16(32) + le32(40)
                + le32(6 + 16 * sizes.count + 40 * index)
        }
        return bytes + [UInt8](repeating: 0, count: 40 * sizes.count)
    }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { be32(8 + payload.count) + ascii(type) + payload }
    static func fullBox(_ type: String, version: UInt8 = 0, flags: Int = 0, _ payload: [UInt8]) -> [UInt8] {
        box(type, [version] + [UInt8(flags >> 16 & 0xFF), UInt8(flags >> 8 & 0xFF), UInt8(flags & 0xFF)] + payload)
    }
    static func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
        box("ftyp", ascii(major) + be32(0) + compatible.flatMap(ascii))
    }

    /// An AVIF/HEIF file whose `ipco` holds one `ispe` per entry of `extents`; item `n` (1-based) is
    /// associated with property `n`, the primary item is `primaryItem`, and `ipma` can be left out.
    static func heif(
        major: String,
        compatible: [String],
        extents: [(Int, Int)],
        primaryItem: Int = 1,
        withAssociations: Bool = true
    ) -> [UInt8] {
        let hdlr = fullBox("hdlr", be32(0) + ascii("pict") + [UInt8](repeating: 0, count: 13))
        let pitm = fullBox("pitm", be16(primaryItem))
        let properties = extents.map { fullBox("ispe", be32($0.0) + be32($0.1)) }
        let ipco = box("ipco", properties.flatMap { $0 } + box("pixi", [0, 0, 0, 0, 3, 8, 8, 8]))
        var associations = be32(extents.count)
        for item in 1...max(1, extents.count) where item <= extents.count {
            associations += be16(item) + [1, 0x80 | UInt8(item)]
        }
        let ipma = withAssociations ? fullBox("ipma", associations) : []
        let iprp = box("iprp", ipco + ipma)
        let meta = fullBox("meta", hdlr + pitm + iprp)
        return ftyp(major, compatible) + meta + box("mdat", [UInt8](repeating: 0xAA, count: 32))
    }

    static func avif(width: Int, height: Int) -> [UInt8] {
        heif(major: "avif", compatible: ["avif", "mif1", "miaf"], extents: [(width, height)])
    }

    static func heic(width: Int, height: Int) -> [UInt8] {
        heif(major: "heic", compatible: ["mif1", "heic"], extents: [(width, height)])
    }

    static func tiff(bigEndian: Bool = false) -> [UInt8] {
        (bigEndian ? [0x4D, 0x4D, 0x00, 0x2A] + be32(8) : [0x49, 0x49, 0x2A, 0x00] + le32(8)) + [0, 0, 0, 0]
    }

    // MARK: Documents and media

    static let html = ascii("<!DOCTYPE html>\n<html lang=\"en\"><head><title>Hi</title></head><body></body></html>")
    static let pdf = ascii("%PDF-1.7\n%\u{E2}\u{E3}\n1 0 obj\n<< /Type /Catalog >>\nendobj\n")

    static func mp4(major: String = "isom", compatible: [String] = ["isom", "iso2", "avc1", "mp41"]) -> [UInt8] {
        ftyp(major, compatible) + box("free", []) + box("mdat", [UInt8](repeating: 0, count: 64))
    }

    static let webm: [UInt8] =
        [
            0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01, 0x42, 0xF7, 0x81, 0x01, 0x42, 0xF2, 0x81, 0x04,
            0x42, 0xF3, 0x81, 0x08, 0x42, 0x82, 0x84,
        ] + ascii("webm") + [0x42, 0x87, 0x81, 0x04, 0x42, 0x85, 0x81, 0x02]

    static func ogg(firstPacket: [UInt8]) -> [UInt8] {
        ascii("OggS") + [0, 2] + [UInt8](repeating: 0, count: 8) + le32(0x1234) + le32(0) + le32(0)
            + [1, UInt8(firstPacket.count)] + firstPacket
    }
    static let oggVorbis = ogg(firstPacket: [1] + ascii("vorbis") + [UInt8](repeating: 0, count: 23))
    static let oggTheora = ogg(firstPacket: [0x80] + ascii("theora") + [UInt8](repeating: 0, count: 35))

    static let mp3WithID3 = ascii("ID3") + [3, 0, 0, 0, 0, 0, 10] + [UInt8](repeating: 0, count: 10)
    /// MPEG-1 Layer III, 128 kbit/s, 44.1 kHz: 417-byte frames.
    static let mp3Frame: [UInt8] = [0xFF, 0xFB, 0x90, 0x64] + [UInt8](repeating: 0x55, count: 413)
    static let wav = riff(
        "WAVE",
        ascii("fmt ") + le32(16) + le16(1) + le16(2) + le32(44_100) + le32(176_400) + le16(4) + le16(16)
    )
    static let avi = riff("AVI ", ascii("LIST") + le32(4) + ascii("hdrl"))
    static let flac = ascii("fLaC") + [0x00, 0x00, 0x00, 0x22] + [UInt8](repeating: 0x10, count: 34)
    static let aiff =
        ascii("FORM") + be32(30) + ascii("AIFF") + ascii("COMM") + be32(18) + [UInt8](repeating: 0, count: 18)
    static let midi = ascii("MThd") + be32(6) + be16(1) + be16(2) + be16(480)
    static let transportStream = (0..<3).flatMap { _ in [0x47, 0x40, 0x00, 0x10] + [UInt8](repeating: 0xFF, count: 184)
    }

    /// AAC-LC in ADTS, 44.1 kHz stereo, 100-byte frames.
    static let aacFrame: [UInt8] = [0xFF, 0xF1, 0x50, 0x80, 0x0C, 0x9F, 0xFC] + [UInt8](repeating: 0x21, count: 93)
}

import LinkPreviewCore
import Testing

struct ImageHeaderTests {
    private typealias F = SniffingFixtures

    /// Every binary fixture with the header `read` must give for it.
    private static let binaryCases: [(name: String, bytes: [UInt8], expected: ImageHeader)] = [
        ("png", F.png(width: 640, height: 480), ImageHeader(format: .png, width: 640, height: 480)),
        (
            "png CgBI", F.png(width: 180, height: 120, appleCgBI: true),
            ImageHeader(format: .png, width: 180, height: 120)
        ),
        ("gif", F.gif(width: 320, height: 200), ImageHeader(format: .gif, width: 320, height: 200)),
        ("jpeg", F.jpeg(width: 1920, height: 1080), ImageHeader(format: .jpeg, width: 1920, height: 1080)),
        (
            "jpeg progressive, DHT first", F.jpeg(width: 800, height: 600, progressive: true, huffmanTablesFirst: true),
            ImageHeader(format: .jpeg, width: 800, height: 600)
        ),
        ("webp VP8", F.webpLossy(width: 550, height: 368), ImageHeader(format: .webp, width: 550, height: 368)),
        ("webp VP8L", F.webpLossless(width: 386, height: 395), ImageHeader(format: .webp, width: 386, height: 395)),
        ("webp VP8X", F.webpExtended(width: 4000, height: 3000), ImageHeader(format: .webp, width: 4000, height: 3000)),
        ("bmp", F.bmp(width: 127, height: 64), ImageHeader(format: .bmp, width: 127, height: 64)),
        ("bmp top-down", F.bmp(width: 127, height: -64), ImageHeader(format: .bmp, width: 127, height: 64)),
        (
            "bmp OS/2", F.bmp(width: 300, height: 20, coreHeader: true),
            ImageHeader(format: .bmp, width: 300, height: 20)
        ),
        ("ico", F.ico(sizes: [(16, 16), (256, 256), (48, 48)]), ImageHeader(format: .ico, width: 256, height: 256)),
        ("cur", F.ico(sizes: [(32, 32)], cursor: true), ImageHeader(format: .ico, width: 32, height: 32)),
        ("avif", F.avif(width: 1200, height: 630), ImageHeader(format: .avif, width: 1200, height: 630)),
        ("heic", F.heic(width: 4032, height: 3024), ImageHeader(format: .heic, width: 4032, height: 3024)),
        ("tiff II", F.tiff(), ImageHeader(format: .tiff)),
        ("tiff MM", F.tiff(bigEndian: true), ImageHeader(format: .tiff)),
    ]

    @Test(arguments: 0..<binaryCases.count)
    func readsFormatAndDimensionsFromHeaders(_ index: Int) {
        let (name, bytes, expected) = Self.binaryCases[index]
        #expect(ImageHeader.read(bytes) == expected, "\(name)")
    }

    @Test(arguments: 0..<binaryCases.count)
    func everyTruncationGivesNothingTheSameFormatOrTheRightDimensions(_ index: Int) {
        let (name, bytes, expected) = Self.binaryCases[index]
        for length in 0...bytes.count {
            guard let header = ImageHeader.read(Array(bytes.prefix(length))) else { continue }
            #expect(header.format == expected.format, "\(name) cut to \(length)")
            if header.width != nil || header.height != nil {
                #expect(header == expected, "\(name) cut to \(length)")
            }
        }
    }

    @Test(arguments: 0..<binaryCases.count)
    func corruptingAnyByteNeverTraps(_ index: Int) {
        let bytes = Self.binaryCases[index].bytes
        for position in bytes.indices {
            for replacement: UInt8 in [0x00, 0x01, 0x7F, 0xFF] {
                var corrupted = bytes
                corrupted[position] = replacement
                if let header = ImageHeader.read(corrupted), let width = header.width, let height = header.height {
                    #expect((1...ImageHeader.maxDimension).contains(width))
                    #expect((1...ImageHeader.maxDimension).contains(height))
                }
            }
        }
    }

    @Test func jpegDimensionsAreFoundBehindALargeExifSegmentWithinA64KiBPrefix() {
        let jpeg = F.jpeg(width: 6000, height: 4000, exifBytes: 60_000)
        let prefix = Array(jpeg.prefix(64 * 1024))
        #expect(ImageHeader.read(prefix) == ImageHeader(format: .jpeg, width: 6000, height: 4000))
    }

    /// A phone photo taken upright is stored 4032×3024 with Exif orientation 6, and shown 3024×4032:
    /// the preview reserved the wrong shape for it.
    @Test(arguments: [(6, false), (8, true), (5, true), (7, false)])
    func jpegTurnedAQuarterByExifIsMeasuredAsShown(orientation: Int, littleEndian: Bool) {
        let photo = F.jpeg(width: 4032, height: 3024, orientation: (orientation, littleEndian))
        #expect(ImageHeader.read(photo) == ImageHeader(format: .jpeg, width: 3024, height: 4032))
    }

    @Test func jpegExifOrientationThatDoesNotTurnItOrCannotBeReadLeavesTheSize() {
        for orientation in [1, 2, 3, 4, 9, 0] {
            let photo = F.jpeg(width: 4032, height: 3024, orientation: (orientation, true))
            #expect(ImageHeader.read(photo) == ImageHeader(format: .jpeg, width: 4032, height: 3024), "\(orientation)")
        }
        // The entry's count and value cut off by the segment's own length: the stored size.
        let tiff = F.ascii("MM") + F.be16(42) + F.be32(8) + F.be16(1) + F.be16(0x0112) + F.be16(3)
        let app1 = [0xFF, 0xE1] + F.be16(2 + 6 + tiff.count) + F.ascii("Exif") + [0, 0] + tiff
        let plain = F.jpeg(width: 4032, height: 3024)
        let cut = Array(plain.prefix(2)) + app1 + Array(plain.dropFirst(2))
        #expect(ImageHeader.read(cut) == ImageHeader(format: .jpeg, width: 4032, height: 3024))
    }

    @Test func jpegWhoseFrameHeaderIsBeyondTheBytesIsAJPEGWithoutDimensions() {
        let jpeg = F.jpeg(width: 6000, height: 4000, exifBytes: 100_000)
        #expect(ImageHeader.read(Array(jpeg.prefix(64 * 1024))) == ImageHeader(format: .jpeg))
    }

    @Test func jpegWithAZeroSegmentLengthOrAScanBeforeAFrameGivesUp() {
        let zeroLength: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x00, 0xFF, 0xC0] + F.be16(17) + [8, 0, 10, 0, 10]
        #expect(ImageHeader.read(zeroLength) == ImageHeader(format: .jpeg))
        let scanFirst: [UInt8] =
            [0xFF, 0xD8, 0xFF, 0xDA] + F.be16(8) + [1, 1, 0, 0, 0x3F, 0] + [0xFF, 0xC0]
            + F.be16(17) + [8, 0, 10, 0, 10]
        #expect(ImageHeader.read(scanFirst) == ImageHeader(format: .jpeg))
    }

    @Test func jpegFillBytesAndRestartMarkersAreSkipped() {
        let jpeg: [UInt8] =
            [0xFF, 0xD8, 0xFF, 0xFF, 0xFF, 0xD0, 0xFF, 0xFE] + F.be16(4) + [0x41, 0x42]
            + [0xFF, 0xC1] + F.be16(17) + [8] + F.be16(90) + F.be16(160) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        #expect(ImageHeader.read(jpeg) == ImageHeader(format: .jpeg, width: 160, height: 90))
    }

    @Test func absurdOrZeroDimensionsAreDropped() {
        #expect(ImageHeader.read(F.png(width: 2_000_000, height: 10)) == ImageHeader(format: .png))
        #expect(ImageHeader.read(F.png(width: 0, height: 10)) == ImageHeader(format: .png))
        #expect(
            ImageHeader.read(F.png(width: 1_000_000, height: 1))
                == ImageHeader(format: .png, width: 1_000_000, height: 1)
        )
        #expect(ImageHeader.read(F.png(width: 0xFFFF_FFFF, height: 0xFFFF_FFFF)) == ImageHeader(format: .png))
        #expect(ImageHeader.read(F.bmp(width: -5, height: 5)) == ImageHeader(format: .bmp))
        #expect(ImageHeader.read(F.jpeg(width: 640, height: 0)) == ImageHeader(format: .jpeg))
    }

    @Test func twoBytesOfBMIsNotABitmap() {
        #expect(ImageHeader.read(F.ascii("BMW drivers rejoice: the new model is here")) == nil)
        #expect(ImageHeader.read(F.ascii("BM")) == nil)
    }

    @Test func iconSizeZeroMeans256AndTheLargestEntryWins() {
        #expect(
            ImageHeader.read(F.ico(sizes: [(0, 0), (32, 32)])) == ImageHeader(format: .ico, width: 256, height: 256)
        )
        #expect(
            ImageHeader.read(F.ico(sizes: [(64, 32), (48, 48)])) == ImageHeader(format: .ico, width: 48, height: 48)
        )
        #expect(ImageHeader.read(F.ico(sizes: [])) == nil)
    }

    @Test func heifUsesThePrimaryItemsExtentsAndOtherwiseTheLargest() {
        let twoItems = [(4000, 3000), (640, 480)]
        let primarySecond = F.heif(major: "heic", compatible: ["mif1", "heic"], extents: twoItems, primaryItem: 2)
        #expect(ImageHeader.read(primarySecond) == ImageHeader(format: .heic, width: 640, height: 480))
        let unassociated = F.heif(
            major: "heic",
            compatible: ["mif1", "heic"],
            extents: [(320, 240), (4000, 3000)],
            primaryItem: 2,
            withAssociations: false
        )
        #expect(ImageHeader.read(unassociated) == ImageHeader(format: .heic, width: 4000, height: 3000))
    }

    /// Two 2^32-1 × 2^32-1 extents and no primary item: comparing their areas overflowed and trapped, so
    /// 92 bytes served at any shared URL (sniffed whatever their Content-Type) took the process down.
    @Test func heifExtentsPastTheLimitAreDroppedNotMultiplied() {
        let huge = (0xFFFF_FFFF, 0xFFFF_FFFF)
        let hostile = F.heif(major: "avif", compatible: ["avif"], extents: [huge, huge], withAssociations: false)
        #expect(ImageHeader.read(hostile) == ImageHeader(format: .avif))
        #expect(ContentSniffer.classify(contentType: "text/html", leadingBytes: hostile) == .image(.avif))
        let oneSane = F.heif(
            major: "heic",
            compatible: ["heic"],
            extents: [(0xFFFF_FFFF, 2), (640, 480)],
            withAssociations: false
        )
        #expect(ImageHeader.read(oneSane) == ImageHeader(format: .heic, width: 640, height: 480))
    }

    @Test func heifFormatComesFromTheBrands() {
        let mif1Avif = F.heif(major: "mif1", compatible: ["mif1", "avif"], extents: [(10, 20)])
        #expect(ImageHeader.read(mif1Avif) == ImageHeader(format: .avif, width: 10, height: 20))
        let mif1Heic = F.heif(major: "mif1", compatible: ["mif1", "heic"], extents: [(10, 20)])
        #expect(ImageHeader.read(mif1Heic)?.format == .heic)
        #expect(ImageHeader.read(F.ftyp("avis", ["avis", "msf1"]))?.format == .avif)
        #expect(ImageHeader.read(F.mp4()) == nil)
        #expect(ImageHeader.read(F.mp4(major: "qt  ", compatible: ["qt  "])) == nil)
    }

    @Test func hostileBoxSizesDoNotTrapOrLoop() throws {
        let ftyp = F.ftyp("avif", ["avif", "mif1"])
        let largeSize = F.be32(1) + F.ascii("meta") + [0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF] + [0, 0, 0, 0]
        #expect(ImageHeader.read(ftyp + largeSize) == ImageHeader(format: .avif))
        let hugeLargeSize = F.be32(1) + F.ascii("meta") + [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        #expect(ImageHeader.read(ftyp + hugeLargeSize) == ImageHeader(format: .avif))
        let toEnd =
            F.be32(0) + F.ascii("meta") + [0, 0, 0, 0] + F.be32(0) + F.ascii("iprp") + F.be32(0) + F.ascii("ipco")
            + F.fullBox("ispe", F.be32(64) + F.be32(32))
        // A box "to the end of the file" read from the file's first bytes may be cut short: no size.
        #expect(ImageHeader.read(ftyp + toEnd) == ImageHeader(format: .avif))
        let tooSmall = F.be32(3) + F.ascii("meta") + [UInt8](repeating: 0, count: 20)
        #expect(ImageHeader.read(ftyp + tooSmall) == ImageHeader(format: .avif))
        // `ipma` is the last box before the 40-byte `mdat`: cut three bytes into it (the association may
        // be what is missing: no size), and claim 2^32-1 entries.
        let avif = F.heif(major: "avif", compatible: ["avif"], extents: [(8, 8)])
        #expect(ImageHeader.read(Array(avif.dropLast(43))) == ImageHeader(format: .avif))
        var manyEntries = avif
        let ipma = try #require((0..<avif.count).first { Array(avif[$0..<$0 + 4]) == F.ascii("ipma") })
        manyEntries.replaceSubrange((ipma + 8)..<(ipma + 12), with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(ImageHeader.read(manyEntries) == ImageHeader(format: .avif, width: 8, height: 8))
    }

    /// The first bytes of a file gave a confident wrong size, and the fetcher stops reading at the
    /// first size it gets: an iPhone grid image's tile `ispe` comes before the image's.
    @Test func heifCutShortGivesNoSizeRatherThanATilesSize() throws {
        let grid = F.heif(
            major: "heic",
            compatible: ["mif1", "heic"],
            extents: [(512, 512), (4032, 3024)],
            primaryItem: 2
        )
        #expect(ImageHeader.read(grid) == ImageHeader(format: .heic, width: 4032, height: 3024))
        let secondExtent = try #require(
            (0..<grid.count - 4).filter { Array(grid[$0..<$0 + 4]) == F.ascii("ispe") }.dropFirst().first
        )
        for cut in [secondExtent - 4, secondExtent + 8, grid.count - 45] {
            #expect(ImageHeader.read(Array(grid.prefix(cut))) == ImageHeader(format: .heic), "cut at \(cut)")
        }
    }

    // MARK: SVG

    private static func svg(_ text: String) -> ImageHeader? { ImageHeader.read(Array(text.utf8)) }

    @Test func svgDimensionsFromWidthAndHeightInPixelsOrUnitless() {
        #expect(
            Self.svg(#"<svg width="120" height="80.4px" xmlns="http://www.w3.org/2000/svg">"#)
                == ImageHeader(format: .svg, width: 120, height: 80)
        )
        #expect(
            Self.svg("<svg height='24' width=32 viewBox='0 0 1 1'/>")
                == ImageHeader(format: .svg, width: 32, height: 24)
        )
        #expect(Self.svg(#"<SVG width="1" height="1">"#) == nil)
    }

    /// Cut inside the start tag, the attributes read so far gave another size than the whole tag.
    @Test func svgCutInsideItsStartTagHasNoSize() {
        let tag = #"<svg viewBox="0 0 100 100" width="300" height="150">"#
        #expect(Self.svg(tag) == ImageHeader(format: .svg, width: 300, height: 150))
        for length in [30, 38, 45, tag.utf8.count - 1] {
            #expect(Self.svg(String(tag.prefix(length))) == ImageHeader(format: .svg), "\(tag.prefix(length))")
        }
    }

    @Test func svgFallsBackToTheViewBox() {
        #expect(Self.svg(#"<svg viewBox="0 0 300 150">"#) == ImageHeader(format: .svg, width: 300, height: 150))
        #expect(
            Self.svg(#"<svg width="100%" height="2em" viewBox="-5,-5, 64,48">"#)
                == ImageHeader(format: .svg, width: 64, height: 48)
        )
        #expect(
            Self.svg(#"<svg width="600" viewBox="0 0 300 150">"#) == ImageHeader(format: .svg, width: 600, height: 300)
        )
        #expect(
            Self.svg(#"<svg height="50" viewBox="0 0 300 150">"#) == ImageHeader(format: .svg, width: 100, height: 50)
        )
        #expect(Self.svg(#"<svg width="10cm" height="5cm">"#) == ImageHeader(format: .svg))
        #expect(Self.svg(#"<svg viewBox="0 0 0 10" width="3">"#) == ImageHeader(format: .svg))
        #expect(Self.svg(#"<svg viewBox="0 0 1e300 1e300">"#) == ImageHeader(format: .svg))
        #expect(Self.svg(#"<svg width="0x10" height="nan">"#) == ImageHeader(format: .svg))
    }

    @Test func svgMayFollowAPrologButNothingElse() {
        let prolog = """
            \u{FEFF}<?xml version="1.0" encoding="UTF-8" standalone="no"?>
            <!-- Generator: a drawing tool -->
            <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [
              <!ENTITY ns "http://www.w3.org/2000/svg">
            ]>
            <svg
              xmlns="http://www.w3.org/2000/svg" width="48px" height="48px">
            """
        #expect(Self.svg(prolog) == ImageHeader(format: .svg, width: 48, height: 48))
        #expect(Self.svg("<svgfoo width=1 height=1>") == nil)
        #expect(Self.svg("<html><svg width=1 height=1></svg>") == nil)
        #expect(Self.svg("<!-- never closed <svg width=1 height=1>") == nil)
        #expect(Self.svg("<svg") == ImageHeader(format: .svg))
        #expect(Self.svg(#"<svg width="12" height="1"#) == ImageHeader(format: .svg))
    }

    @Test func everyTruncationOfAnSVGIsSafe() {
        let text = Array(
            #"<?xml version="1.0"?><!-- c --><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 9">"#.utf8
        )
        for length in 0...text.count {
            let header = ImageHeader.read(Array(text.prefix(length)))
            if let header { #expect(header.format == .svg) }
            if length == text.count { #expect(header == ImageHeader(format: .svg, width: 16, height: 9)) }
        }
    }

    @Test func unrecognisedBytesAreNotAnImage() {
        #expect(ImageHeader.read([]) == nil)
        #expect(ImageHeader.read(F.html) == nil)
        #expect(ImageHeader.read(F.pdf) == nil)
        #expect(ImageHeader.read([0xFF, 0xD8]) == nil)
        #expect(ImageHeader.read(F.wav) == nil)
    }

    @Test func mimeTypesAreImageTypes() {
        for format in ImageFormat.allCases { #expect(format.mimeType.hasPrefix("image/")) }
        #expect(ImageFormat.svg.mimeType == "image/svg+xml")
        #expect(ImageFormat.jpeg.mimeType == "image/jpeg")
        #expect(ImageFormat.ico.mimeType == "image/x-icon")
    }
}

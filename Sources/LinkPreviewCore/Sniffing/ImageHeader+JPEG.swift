/// JPEG: walk the marker segments to the first start-of-frame.
extension ImageHeader {
    /// JPEG: `FF D8 FF`, then segments up to the first `SOFn`, whose fields are precision, height and
    /// width. The size is as the image is shown: an Exif `APP1` before the frame whose orientation
    /// turns the image a quarter (5–8, a phone photo taken upright) swaps width and height, as
    /// browsers do (`image-orientation: from-image`).
    ///
    /// The walk advances by each segment's declared length, so it ends within `bytes.count / 2` steps.
    /// It gives up without dimensions at the start of scan, at the end of image, at anything that is not
    /// a marker where one must be, or at the end of the bytes given.
    static func readJPEG(_ data: HeaderBytes) -> ImageHeader? {
        guard data.matches([0xFF, 0xD8, 0xFF], at: 0) else { return nil }
        var offset = 2
        var turnedAQuarter = false
        while true {
            guard data.uint8(at: offset) == 0xFF else { return ImageHeader(format: .jpeg) }
            // Any number of 0xFF fill bytes may precede a marker.
            var markerOffset = offset + 1
            while data.uint8(at: markerOffset) == 0xFF { markerOffset += 1 }
            guard let marker = data.uint8(at: markerOffset) else { return ImageHeader(format: .jpeg) }
            let segment = markerOffset + 1
            switch marker {
            case 0x01, 0xD0...0xD7:
                // Standalone markers (TEM, RSTn) carry no length.
                offset = segment
                continue
            case 0xD8, 0xD9, 0xDA, 0x00:
                // A second SOI, end of image, start of scan, or a stuffed byte: no frame header before it.
                return ImageHeader(format: .jpeg)
            default:
                break
            }
            guard let length = data.uint16BE(at: segment), length >= 2 else { return ImageHeader(format: .jpeg) }
            if isStartOfFrame(marker) {
                guard length >= 7 else { return ImageHeader(format: .jpeg) }
                let width = data.uint16BE(at: segment + 5)
                let height = data.uint16BE(at: segment + 3)
                return turnedAQuarter
                    ? sized(.jpeg, width: height, height: width) : sized(.jpeg, width: width, height: height)
            }
            if marker == 0xE1, let orientation = exifOrientation(data, in: (segment + 2)..<(segment + length)) {
                turnedAQuarter = (5...8).contains(orientation)
            }
            offset = segment + length
        }
    }

    /// The Exif orientation (1–8) in an `APP1` payload at `range`: `Exif\0\0`, a TIFF header (`II` or
    /// `MM`, 42, the first IFD's offset), then tag 0x0112 among that IFD's entries. Nil when the payload
    /// is not Exif, names no orientation, or runs past the bytes or the segment.
    private static func exifOrientation(_ data: HeaderBytes, in range: Range<Int>) -> Int? {
        guard data.matches("Exif\0\0", at: range.lowerBound) else { return nil }
        let tiff = range.lowerBound + 6
        let littleEndian: Bool
        if data.matches("II", at: tiff) {
            littleEndian = true
        } else if data.matches("MM", at: tiff) {
            littleEndian = false
        } else {
            return nil
        }
        func uint16(_ offset: Int) -> Int? {
            guard offset + 2 <= range.upperBound else { return nil }
            return littleEndian ? data.uint16LE(at: offset) : data.uint16BE(at: offset)
        }
        func uint32(_ offset: Int) -> Int? {
            guard offset + 4 <= range.upperBound else { return nil }
            return littleEndian ? data.uint32LE(at: offset) : data.uint32BE(at: offset)
        }
        guard uint16(tiff + 2) == 42, let ifdOffset = uint32(tiff + 4), ifdOffset < range.count,
            let entries = uint16(tiff + ifdOffset)
        else { return nil }
        // Each entry: tag, type, count (4 bytes), value (4 bytes; a SHORT sits in its first two).
        for entry in 0..<entries {
            let at = tiff + ifdOffset + 2 + entry * 12
            guard let tag = uint16(at) else { return nil }
            if tag == 0x0112 {
                guard uint16(at + 2) == 3, let value = uint16(at + 8), (1...8).contains(value) else { return nil }
                return value
            }
        }
        return nil
    }

    /// `SOF0`–`SOF15` except `DHT` (C4), `JPG` (C8) and `DAC` (CC), which share the range.
    private static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }
}

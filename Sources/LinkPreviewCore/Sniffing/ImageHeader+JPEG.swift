/// JPEG: walk the marker segments to the first start-of-frame.
extension ImageHeader {
    /// JPEG: `FF D8 FF`, then segments up to the first `SOFn`, whose fields are precision, height and
    /// width.
    ///
    /// The walk advances by each segment's declared length, so it ends within `bytes.count / 2` steps.
    /// It gives up without dimensions at the start of scan, at the end of image, at anything that is not
    /// a marker where one must be, or at the end of the bytes given.
    static func readJPEG(_ data: HeaderBytes) -> ImageHeader? {
        guard data.matches([0xFF, 0xD8, 0xFF], at: 0) else { return nil }
        var offset = 2
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
                return sized(.jpeg, width: data.uint16BE(at: segment + 5), height: data.uint16BE(at: segment + 3))
            }
            offset = segment + length
        }
    }

    /// `SOF0`–`SOF15` except `DHT` (C4), `JPG` (C8) and `DAC` (CC), which share the range.
    private static func isStartOfFrame(_ marker: UInt8) -> Bool {
        (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
    }
}

/// AVIF and HEIC: the `ftyp` brand, then the primary item's `ispe` (image spatial extents) property.
extension ImageHeader {
    /// At most this many sibling boxes are looked at on any level.
    private static let maxBoxesPerLevel = 256

    /// AVIF / HEIC from the `ftyp` brands; dimensions from `meta` › `iprp` › `ipco` › `ispe` when those
    /// boxes lie within the bytes.
    ///
    /// The walk follows that fixed path (plus `pitm` and `ipma` to find which `ispe` belongs to the
    /// primary item), so its depth does not depend on the input. Without an association the largest
    /// `ispe` is taken (grid tiles and thumbnails are smaller than the image), but only once the whole
    /// `iprp` is in the bytes: cut short, the association may be in what is missing, and the first
    /// bytes of an iPhone's grid image would give its tile's size. Nor is anything read from an `ipco`
    /// cut short. Sizes are as stored, before any `irot` rotation.
    static func readISOBaseMedia(_ data: HeaderBytes) -> ImageHeader? {
        guard case .image(let format) = ISOFileType.classify(data) else { return nil }
        let size = primaryItemExtents(data)
        return sized(format, width: size?.width, height: size?.height)
    }

    /// A box header: where its payload starts and where the box ends (clamped to the bytes given).
    private struct Box {
        var type: String
        var payload: Int
        var end: Int
        /// Whether all of the box is in the bytes (and within its parent): not cut short.
        var isWhole: Bool
    }

    /// The boxes directly inside `range`, stopping at the first malformed header.
    private static func boxes(in range: Range<Int>, of data: HeaderBytes) -> [Box] {
        var result: [Box] = []
        var offset = range.lowerBound
        let limit = min(range.upperBound, data.count)
        while result.count < maxBoxesPerLevel, offset < limit, let size32 = data.uint32BE(at: offset),
            let type = data.fourCC(at: offset + 4)
        {
            var header = 8
            var size = size32
            if size32 == 1 {
                guard let large = data.uint64BE(at: offset + 8) else { break }
                header = 16
                size = large
            } else if size32 == 0 {
                size = limit - offset
            }
            guard size >= header else { break }
            let isWhole = size32 != 0 && size <= limit - offset
            let end = isWhole ? offset + size : limit
            result.append(Box(type: type, payload: offset + header, end: end, isWhole: isWhole))
            offset = end
        }
        return result
    }

    /// The width and height of the primary item, or of the largest image if that cannot be told.
    private static func primaryItemExtents(_ data: HeaderBytes) -> (width: Int, height: Int)? {
        guard let meta = boxes(in: 0..<data.count, of: data).first(where: { $0.type == "meta" }) else { return nil }
        // `meta` is a full box: version and flags come before its children.
        let metaChildren = boxes(in: (meta.payload + 4)..<max(meta.payload + 4, meta.end), of: data)
        var primaryItem: Int?
        if let pitm = metaChildren.first(where: { $0.type == "pitm" }), let version = data.uint8(at: pitm.payload) {
            primaryItem = version == 0 ? data.uint16BE(at: pitm.payload + 4) : data.uint32BE(at: pitm.payload + 4)
        }
        guard let iprp = metaChildren.first(where: { $0.type == "iprp" }) else { return nil }
        let iprpChildren = boxes(in: iprp.payload..<max(iprp.payload, iprp.end), of: data)
        guard let ipco = iprpChildren.first(where: { $0.type == "ipco" }), ipco.isWhole else { return nil }

        // Property indices are 1-based positions in `ipco`. Extents outside 1…maxDimension are dropped
        // here (as `sized` would drop them), which also keeps the areas compared below from overflowing:
        // each side is read from 32 bits.
        var extents: [Int: (width: Int, height: Int)] = [:]
        for (index, property) in boxes(in: ipco.payload..<max(ipco.payload, ipco.end), of: data).enumerated()
        where property.type == "ispe" {
            if let width = data.uint32BE(at: property.payload + 4),
                let height = data.uint32BE(at: property.payload + 8),
                property.payload + 12 <= property.end,
                (1...maxDimension).contains(width), (1...maxDimension).contains(height)
            {
                extents[index + 1] = (width, height)
            }
        }
        if let primaryItem, let ipma = iprpChildren.first(where: { $0.type == "ipma" }), ipma.isWhole,
            let index = propertyIndices(of: primaryItem, in: ipma, data: data).first(where: { extents[$0] != nil })
        {
            return extents[index]
        }
        guard iprp.isWhole else { return nil }
        return extents.values.max { $0.width * $0.height < $1.width * $1.height }
    }

    /// The property indices `ipma` associates with `item`, in order.
    private static func propertyIndices(of item: Int, in ipma: Box, data: HeaderBytes) -> [Int] {
        guard let version = data.uint8(at: ipma.payload), let flags = data.uint8(at: ipma.payload + 3),
            let entryCount = data.uint32BE(at: ipma.payload + 4)
        else { return [] }
        let wideIndices = flags & 1 == 1
        var offset = ipma.payload + 8
        var entry = 0
        while entry < entryCount, offset < ipma.end {
            let itemID = version < 1 ? data.uint16BE(at: offset) : data.uint32BE(at: offset)
            offset += version < 1 ? 2 : 4
            guard let itemID, let associationCount = data.uint8(at: offset) else { return [] }
            offset += 1
            var indices: [Int] = []
            for _ in 0..<associationCount {
                if wideIndices {
                    guard let value = data.uint16BE(at: offset) else { return [] }
                    indices.append(value & 0x7FFF)
                    offset += 2
                } else {
                    guard let value = data.uint8(at: offset) else { return [] }
                    indices.append(Int(value & 0x7F))
                    offset += 1
                }
            }
            if itemID == item { return indices }
            entry += 1
        }
        return []
    }
}

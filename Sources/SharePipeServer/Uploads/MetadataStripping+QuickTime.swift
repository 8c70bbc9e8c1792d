extension MetadataStripping {
    // MARK: MP4 and QuickTime

    /// The boxes that hold what a video says about where and with what it was made: user data
    /// (`udta`: `©xyz` is the position, `©mak` and `©mod` the camera), metadata (`meta`: QuickTime's
    /// `com.apple.quicktime.location.ISO6709` keys, iTunes-style tags) and `uuid` boxes (XMP). They
    /// are found at the top level, in `moov` and in each `trak`.
    static let quickTimeMetadataBoxes: Set<String> = ["udta", "meta", "uuid"]

    /// The boxes walked into to find them.
    static let quickTimeContainers: Set<String> = ["moov", "trak"]

    /// The largest metadata box blanked (a box larger than this is no metadata a camera writes; the
    /// file is then not passed on).
    static let maxQuickTimeMetadataBox: Int64 = 4 << 20

    /// The plan for an MP4 or QuickTime file: every metadata box becomes a `free` box of the same
    /// size, its contents zeros, so that nothing moves — the sample tables' offsets into `mdat` stay
    /// true and the video plays as it did — and nothing of what the box said is left.
    static func quickTime(size: Int64, read: Reader) async throws -> [Piece]? {
        var pieces: [Piece] = []
        var copiedFrom: Int64 = 0
        var parts = 0
        /// Walks the boxes of `range`, blanking metadata and descending into containers.
        func walk(_ range: Range<Int64>, depth: Int) async throws -> Bool {
            var position = range.lowerBound
            while position < range.upperBound {
                parts += 1
                guard parts <= maxParts, range.upperBound - position >= 8 else { return false }
                let head = try await read(position, 16)
                guard head.count >= 8 else { return false }
                let size32 = Int64(head[0]) << 24 | Int64(head[1]) << 16 | Int64(head[2]) << 8 | Int64(head[3])
                let type = String(decoding: head[4..<8], as: UTF8.self)
                var headerLength: Int64 = 8
                let boxSize: Int64
                switch size32 {
                case 0:  // to the end of the enclosing range
                    boxSize = range.upperBound - position
                case 1:  // a 64-bit size follows the type
                    guard head.count == 16 else { return false }
                    boxSize = head[8..<16].reduce(Int64(0)) { $0 << 8 | Int64($1) }
                    headerLength = 16
                default:
                    boxSize = size32
                }
                guard boxSize >= headerLength, boxSize <= range.upperBound - position else { return false }
                let box = position..<position + boxSize
                if quickTimeMetadataBoxes.contains(type) {
                    guard boxSize <= maxQuickTimeMetadataBox else { return false }
                    if copiedFrom < box.lowerBound { pieces.append(.copy(copiedFrom..<box.lowerBound)) }
                    var header = Array(head[0..<4]) + Array("free".utf8)
                    if headerLength == 16 { header += head[8..<16] }
                    pieces.append(.bytes(header + [UInt8](repeating: 0, count: Int(boxSize - headerLength))))
                    copiedFrom = box.upperBound
                } else if quickTimeContainers.contains(type), depth < 2 {
                    guard try await walk(position + headerLength..<box.upperBound, depth: depth + 1) else { return false }
                }
                position = box.upperBound
            }
            return true
        }
        guard try await walk(0..<size, depth: 0) else { return nil }
        if copiedFrom < size { pieces.append(.copy(copiedFrom..<size)) }
        return pieces
    }
}

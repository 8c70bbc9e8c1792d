/// A set of lowercase ASCII byte strings to look for inside attribute values, ignoring ASCII case, in
/// one pass over the value: a bitmap of the markers' first two bytes rules out almost every position
/// with one load, and only the markers starting with the position's byte are compared.
struct MarkerSet: Sendable {
    /// The markers, with the name reported for each.
    let markers: [(name: String, bytes: [UInt8])]
    /// Bit `a << 8 | b` is set when a marker starts with bytes `a`, `b` (lowercase); markers of one byte
    /// set every `b`.
    private let pairBitmap: [UInt64]
    /// Marker indices grouped by first byte: those starting with byte `c` are
    /// `indicesByFirstByte[groupStart[c]..<groupStart[c + 1]]`.
    private let indicesByFirstByte: [Int]
    private let groupStart: [Int]

    init(_ names: [String]) {
        markers = names.map { ($0, Array($0.lowercased().utf8)) }
        var bitmap = [UInt64](repeating: 0, count: 65536 / 64)
        var groups = [[Int]](repeating: [], count: 256)
        for (index, marker) in markers.enumerated() {
            guard let first = marker.bytes.first else { continue }
            groups[Int(first)].append(index)
            let seconds = marker.bytes.count > 1 ? [marker.bytes[1]] : Array(0...255)
            for second in seconds {
                let key = Int(first) << 8 | Int(second)
                bitmap[key >> 6] |= 1 << UInt64(key & 63)
            }
        }
        pairBitmap = bitmap
        indicesByFirstByte = groups.flatMap { $0 }
        groupStart = groups.reduce(into: [0]) { starts, group in starts.append(starts.last! + group.count) }
    }

    /// Calls `found` with the name of each marker `value` contains (a marker may be reported twice).
    func forEachMarker(in value: ArraySlice<UInt8>, _ found: (String) -> Void) {
        value.withUnsafeBufferPointer { bytes in
            pairBitmap.withUnsafeBufferPointer { bitmap in
                var position = 0
                while position < bytes.count {
                    let first = ASCII.lowercased(bytes[position])
                    let second = position + 1 < bytes.count ? ASCII.lowercased(bytes[position + 1]) : 0
                    let key = Int(first) << 8 | Int(second)
                    if bitmap[key >> 6] & (1 << UInt64(key & 63)) != 0 {
                        for group in groupStart[Int(first)]..<groupStart[Int(first) + 1] {
                            let marker = markers[indicesByFirstByte[group]]
                            if matches(marker.bytes, in: bytes, at: position) { found(marker.name) }
                        }
                    }
                    position += 1
                }
            }
        }
    }

    private func matches(_ marker: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, at position: Int) -> Bool {
        guard bytes.count - position >= marker.count else { return false }
        var k = 1
        while k < marker.count && ASCII.lowercased(bytes[position + k]) == marker[k] { k += 1 }
        return k == marker.count
    }
}

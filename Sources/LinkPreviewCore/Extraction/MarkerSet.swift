/// A set of lowercase ASCII byte strings to look for inside attribute values, ignoring ASCII case, in
/// one pass over the value.
///
/// The search is Wu–Manber's with two-byte blocks: with `m` the length of the shortest marker, a
/// window of `m` bytes slides along the value, and the window's last two bytes tell how far it may
/// jump without passing over the start of a marker (up to `m - 1` bytes). Only where they end the
/// first `m` bytes of some marker are the markers starting with the window's first byte compared.
struct MarkerSet: Sendable {
    /// The markers, with the name reported for each.
    let markers: [(name: String, bytes: [UInt8])]
    /// The length of the shortest marker (at least 2): the window.
    private let window: Int
    /// For each two-byte block `a << 8 | b` (lowercase), how far a window ending in it may move on.
    private let shifts: [UInt8]
    /// Marker indices grouped by first byte: those starting with byte `c` are
    /// `indicesByFirstByte[groupStart[c]..<groupStart[c + 1]]`.
    private let indicesByFirstByte: [Int]
    private let groupStart: [Int]

    init(_ names: [String]) {
        markers = names.map { ($0, Array($0.lowercased().utf8)) }
        precondition(markers.allSatisfy { $0.bytes.count >= 2 }, "markers are at least two bytes long")
        let window = markers.map(\.bytes.count).min() ?? 2
        var shifts = [UInt8](repeating: UInt8(window - 1), count: 65536)
        var groups = [[Int]](repeating: [], count: 256)
        for (index, marker) in markers.enumerated() {
            groups[Int(marker.bytes[0])].append(index)
            for q in 0..<(window - 1) {
                let block = Int(marker.bytes[q]) << 8 | Int(marker.bytes[q + 1])
                shifts[block] = min(shifts[block], UInt8(window - 2 - q))
            }
        }
        self.window = window
        self.shifts = shifts
        indicesByFirstByte = groups.flatMap { $0 }
        groupStart = groups.reduce(into: [0]) { starts, group in starts.append(starts.last! + group.count) }
    }

    /// Calls `found` with the name of each marker `value` contains, in order of position (a marker may
    /// be reported twice).
    func forEachMarker(in value: ArraySlice<UInt8>, _ found: (String) -> Void) {
        value.withUnsafeBufferPointer { bytes in
            shifts.withUnsafeBufferPointer { shifts in
                var position = 0
                while position + window <= bytes.count {
                    let last = position + window - 1
                    let block = Int(ASCII.lowercased(bytes[last - 1])) << 8 | Int(ASCII.lowercased(bytes[last]))
                    let shift = Int(shifts[block])
                    if shift > 0 {
                        position += shift
                        continue
                    }
                    let first = Int(ASCII.lowercased(bytes[position]))
                    for group in groupStart[first]..<groupStart[first + 1] {
                        let marker = markers[indicesByFirstByte[group]]
                        if matches(marker.bytes, in: bytes, at: position) { found(marker.name) }
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

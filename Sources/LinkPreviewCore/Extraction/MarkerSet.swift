/// A set of lowercase ASCII byte strings to look for inside attribute values, ignoring ASCII case, in
/// one pass over the value: only positions whose byte can start a marker are checked.
struct MarkerSet: Sendable {
    /// The markers, with the name reported for each.
    let markers: [(name: String, bytes: [UInt8])]
    /// For each byte value, the indices of the markers that start with it.
    private let startingWith: [[Int]]

    init(_ names: [String]) {
        markers = names.map { ($0, Array($0.lowercased().utf8)) }
        var table = [[Int]](repeating: [], count: 256)
        for (index, marker) in markers.enumerated() {
            if let first = marker.bytes.first { table[Int(first)].append(index) }
        }
        startingWith = table
    }

    /// Calls `found` with the name of each marker `value` contains (a marker may be reported twice).
    func forEachMarker(in value: ArraySlice<UInt8>, _ found: (String) -> Void) {
        var position = value.startIndex
        while position < value.endIndex {
            let candidates = startingWith[Int(ASCII.lowercased(value[position]))]
            for index in candidates {
                let bytes = markers[index].bytes
                guard value.endIndex - position >= bytes.count else { continue }
                var k = 1
                while k < bytes.count && ASCII.lowercased(value[position + k]) == bytes[k] { k += 1 }
                if k == bytes.count { found(markers[index].name) }
            }
            position += 1
        }
    }
}

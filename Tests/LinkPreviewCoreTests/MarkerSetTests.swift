import TestSupport
import Testing

@testable import LinkPreviewCore

struct MarkerSetTests {
    /// The skipping search reports what comparing every marker at every position reports, in the same
    /// order, for markers at any offset, in any case, overlapping or next to each other.
    @Test(.cpuHeavy, arguments: [WallSignals.captchaSourceMarkers, WallSignals.captchaClassMarkers])
    func reportsWhatANaiveSearchReports(names: [String]) {
        let set = MarkerSet(names)
        var random = SeededRandom(seed: 7)
        let fillers = ["", "x", "-", "/cdn/", "re", "cap", "cha", "Captch", "challeng", "cf-", "g-"]
        for _ in 0..<3000 {
            var value = ""
            for _ in 0..<random.next(below: 4) {
                value += fillers[random.next(below: fillers.count)]
                let marker = names[random.next(below: names.count)]
                value += random.next(below: 2) == 0 ? marker : marker.uppercased()
            }
            value += fillers[random.next(below: fillers.count)]
            let bytes = Array(value.utf8)
            var found: [String] = []
            set.forEachMarker(in: bytes[...]) { found.append($0) }
            #expect(found == Self.naive(set, bytes), "\(value)")
        }
    }

    static func naive(_ set: MarkerSet, _ bytes: [UInt8]) -> [String] {
        var found: [String] = []
        for position in bytes.indices {
            for marker in set.markers where position + marker.bytes.count <= bytes.count {
                let window = bytes[position..<position + marker.bytes.count].map(ASCII.lowercased)
                if window == marker.bytes { found.append(marker.name) }
            }
        }
        return found
    }
}

/// A small deterministic generator, so a failure repeats.
struct SeededRandom {
    var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next(below bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }
}

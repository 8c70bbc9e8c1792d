/// An MPEG-1/2/2.5 audio (MP1/MP2/MP3) frame header, validated field by field.
///
/// One frame sync (`FF Ex`) is a weak signature that plain data can match by accident, so a body is
/// only taken for MP3 on its own evidence when a second valid header follows where the first says its
/// frame ends (see ``ContentSniffer``).
struct MPEGAudioFrame: Sendable, Hashable {
    /// 0 = MPEG 2.5, 2 = MPEG 2, 3 = MPEG 1.
    var version: Int
    /// 1 = Layer III, 2 = Layer II, 3 = Layer I.
    var layer: Int
    /// The frame's length in bytes, header included.
    var length: Int

    private static let bitrates: [[Int]] = [
        [32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],  // MPEG 1, Layer I
        [32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],  // MPEG 1, Layer II
        [32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],  // MPEG 1, Layer III
        [32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],  // MPEG 2/2.5, Layer I
        [8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],  // MPEG 2/2.5, Layers II and III
    ]
    private static let sampleRates: [Int: [Int]] = [
        3: [44_100, 48_000, 32_000], 2: [22_050, 24_000, 16_000], 0: [11_025, 12_000, 8_000],
    ]

    /// The frame header at `offset`, or nil if the four bytes there are not a valid one.
    init?(_ data: HeaderBytes, at offset: Int) {
        guard data.uint8(at: offset) == 0xFF, let second = data.uint8(at: offset + 1), second & 0xE0 == 0xE0,
            let third = data.uint8(at: offset + 2), data.has(4, at: offset)
        else { return nil }
        let version = Int(second >> 3) & 3
        let layer = Int(second >> 1) & 3
        let bitrateIndex = Int(third >> 4)
        let sampleRateIndex = Int(third >> 2) & 3
        let padding = Int(third >> 1) & 1
        guard version != 1, layer != 0, (1...14).contains(bitrateIndex), sampleRateIndex != 3,
            let rates = Self.sampleRates[version]
        else { return nil }
        let table = version == 3 ? 3 - layer : (layer == 3 ? 3 : 4)
        let bitrate = Self.bitrates[table][bitrateIndex - 1] * 1000
        let sampleRate = rates[sampleRateIndex]
        let length: Int
        switch layer {
        case 3: length = (12 * bitrate / sampleRate + padding) * 4
        case 1 where version != 3: length = 72 * bitrate / sampleRate + padding
        default: length = 144 * bitrate / sampleRate + padding
        }
        self.version = version
        self.layer = layer
        self.length = length
    }

    /// Whether a frame header at `offset` is followed by another of the same version and layer where
    /// its frame ends, both within the bytes.
    static func startsStream(_ data: HeaderBytes, at offset: Int) -> Bool {
        guard let first = MPEGAudioFrame(data, at: offset), let next = MPEGAudioFrame(data, at: offset + first.length)
        else { return false }
        return next.version == first.version && next.layer == first.layer
    }
}

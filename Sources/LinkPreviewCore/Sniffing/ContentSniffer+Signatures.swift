/// Rule 1 of ``ContentSniffer``: signatures definite enough to overrule any declared type.
extension ContentSniffer {
    /// The content the bytes prove, whatever the header says; nil when they prove nothing.
    ///
    /// - Parameter declared: Only consulted to choose between audio and video for a container that can
    ///   hold either.
    static func binarySignature(_ data: HeaderBytes, declared: MIMEType?) -> SniffedContent? {
        let wantsAudio = declared?.type == "audio"
        let wantsVideo = declared?.type == "video"
        if let image = ImageHeader.readBinary(data) { return .image(image.format) }
        if data.matches("%PDF-", at: 0) { return .pdf }
        switch ISOFileType.classify(data) {
        case .image(let format): return .image(format)
        case .audio(let mimeType): return .audio(mimeType: mimeType)
        case .video(let mimeType):
            guard wantsAudio, mimeType != "video/quicktime" else { return .video(mimeType: mimeType) }
            return .audio(mimeType: "audio/" + mimeType.dropFirst("video/".count))
        case nil: break
        }
        if data.matches([0x1A, 0x45, 0xDF, 0xA3], at: 0) {
            // WebM unless the EBML header's DocType says plain Matroska (WebM is what the web serves).
            let subtype = containsASCII("matroska", in: data, within: 64) ? "x-matroska" : "webm"
            return wantsAudio ? .audio(mimeType: "audio/" + subtype) : .video(mimeType: "video/" + subtype)
        }
        if data.matches("OggS", at: 0) {
            let isVideo = wantsVideo || containsASCII("theora", in: data, within: 128)
            return isVideo ? .video(mimeType: "video/ogg") : .audio(mimeType: "audio/ogg")
        }
        if data.matches("RIFF", at: 0) {
            if data.matches("WAVE", at: 8) { return .audio(mimeType: "audio/wav") }
            if data.matches("AVI ", at: 8) { return .video(mimeType: "video/x-msvideo") }
        }
        if data.matches("FORM", at: 0), data.matches("AIFF", at: 8) || data.matches("AIFC", at: 8) {
            return .audio(mimeType: "audio/aiff")
        }
        if data.matches("fLaC", at: 0) { return .audio(mimeType: "audio/flac") }
        if data.matches("MThd", at: 0), data.matches([0, 0, 0, 6], at: 4) { return .audio(mimeType: "audio/midi") }
        if data.matches("ID3", at: 0) { return .audio(mimeType: "audio/mpeg") }
        if isTransportStream(data) { return .video(mimeType: "video/mp2t") }
        // FF FE is a UTF-16 byte order mark before it is an MPEG Layer I header.
        if !data.matches([0xFF, 0xFE], at: 0), MPEGAudioFrame.startsStream(data, at: 0) {
            return .audio(mimeType: "audio/mpeg")
        }
        if startsADTSStream(data) { return .audio(mimeType: "audio/aac") }
        return nil
    }

    /// MPEG transport stream: the sync byte `0x47` at the start of three consecutive 188-byte packets.
    private static func isTransportStream(_ data: HeaderBytes) -> Bool {
        (0..<3).allSatisfy { data.uint8(at: $0 * 188) == 0x47 }
    }

    /// AAC in ADTS frames: a valid header, and another where its frame length says the next begins.
    private static func startsADTSStream(_ data: HeaderBytes) -> Bool {
        guard let length = adtsFrameLength(data, at: 0) else { return false }
        return adtsFrameLength(data, at: length) != nil
    }

    /// The length of the ADTS frame whose header is at `offset`, or nil if there is no valid header.
    static func adtsFrameLength(_ data: HeaderBytes, at offset: Int) -> Int? {
        guard data.uint8(at: offset) == 0xFF, let second = data.uint8(at: offset + 1), second & 0xF6 == 0xF0,
            let third = data.uint8(at: offset + 2), (third >> 2) & 0x0F < 13,
            let fourth = data.uint8(at: offset + 3), let fifth = data.uint8(at: offset + 4),
            let sixth = data.uint8(at: offset + 5)
        else { return nil }
        let length = Int(fourth & 0x03) << 11 | Int(fifth) << 3 | Int(sixth >> 5)
        return length >= 7 ? length : nil
    }

    /// Whether the ASCII text occurs within the first `limit` bytes.
    private static func containsASCII(_ text: StaticString, in data: HeaderBytes, within limit: Int) -> Bool {
        (0..<min(limit, data.count)).contains { data.matches(text, at: $0) }
    }
}

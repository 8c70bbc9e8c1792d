extension ObservationCollector {
    /// `<input type=password>`: a sign-in form.
    mutating func recordInput(_ tag: HTMLTag) {
        if tag.withValue(of: "type", { ByteMatching.equalsIgnoringCase($0, "password") }) == true {
            observations.hasPasswordField = true
        }
    }

    mutating func recordForm(_ tag: HTMLTag) {
        if observations.formActions.count < WallSignals.formActionLimit, let action = tag.value(of: "action") {
            observations.formActions.append(action)
        }
        recordCaptchaClass(tag)
    }

    mutating func recordCaptchaMarker(in tag: HTMLTag) {
        tag.withValue(of: "src") { recordMarkers(in: $0, from: Self.captchaSourceMarkers) }
    }

    /// Challenge pages are small: `class`/`id` markers are looked for in the first
    /// ``captchaClassScanTags`` tags only, so long pages pay nothing for it.
    mutating func recordCaptchaClass(_ tag: HTMLTag) {
        guard tagCount <= Self.captchaClassScanTags else { return }
        tag.withValue(of: "id") { recordMarkers(in: $0, from: Self.captchaClassMarkers) }
        tag.withValue(of: "class") { recordMarkers(in: $0, from: Self.captchaClassMarkers) }
    }

    private mutating func recordMarkers(in value: ArraySlice<UInt8>, from markers: [(String, [UInt8])]) {
        for (marker, bytes) in markers where ByteMatching.containsIgnoringCase(value, bytes) {
            guard observations.captchaMarkers.count < WallSignals.captchaMarkerLimit else { return }
            if !observations.captchaMarkers.contains(marker) { observations.captchaMarkers.append(marker) }
        }
    }

    static let captchaClassScanTags = 400
    static let captchaSourceMarkers = WallSignals.captchaSourceMarkers.map { ($0, Array($0.lowercased().utf8)) }
    static let captchaClassMarkers = WallSignals.captchaClassMarkers.map { ($0, Array($0.lowercased().utf8)) }
}

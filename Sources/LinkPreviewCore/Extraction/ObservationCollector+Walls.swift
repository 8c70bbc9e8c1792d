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

    private mutating func recordMarkers(in value: ArraySlice<UInt8>, from markers: MarkerSet) {
        var found: [String] = []
        markers.forEachMarker(in: value) { found.append($0) }
        for marker in found where !observations.captchaMarkers.contains(marker) {
            guard observations.captchaMarkers.count < WallSignals.captchaMarkerLimit else { return }
            observations.captchaMarkers.append(marker)
        }
    }

    static let captchaClassScanTags = 400
    static let captchaSourceMarkers = MarkerSet(WallSignals.captchaSourceMarkers)
    static let captchaClassMarkers = MarkerSet(WallSignals.captchaClassMarkers)
}

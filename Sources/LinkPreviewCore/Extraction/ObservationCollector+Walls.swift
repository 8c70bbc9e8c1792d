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
        markers.forEachMarker(in: value) { marker in
            // The generic `captcha` counts only as a name of its own (`captcha`, `captcha-box`):
            // `page-CAPTCHA` and `tag-captcha` are classes CMSs write for a page or tag of that name.
            if marker == Self.genericCaptchaMarker && !Self.hasToken(startingWith: marker, in: value) { return }
            found.append(marker)
        }
        for marker in found where !observations.captchaMarkers.contains(marker) {
            guard observations.captchaMarkers.count < WallSignals.captchaMarkerLimit else { return }
            observations.captchaMarkers.append(marker)
        }
    }

    static let captchaClassScanTags = 400
    static let genericCaptchaMarker = "captcha"

    /// Whether a token of `value` (an HTML space-separated list) starts with `prefix`, lowercase
    /// ASCII, ignoring case.
    static func hasToken(startingWith prefix: String, in value: ArraySlice<UInt8>) -> Bool {
        let prefix = Array(prefix.utf8)
        var found = false
        ByteMatching.forEachToken(in: value) { token in
            found = ASCII.equalsLowercased(token.prefix(prefix.count), prefix)
            return !found
        }
        return found
    }
    static let captchaSourceMarkers = MarkerSet(WallSignals.captchaSourceMarkers)
    static let captchaClassMarkers = MarkerSet(WallSignals.captchaClassMarkers)
}

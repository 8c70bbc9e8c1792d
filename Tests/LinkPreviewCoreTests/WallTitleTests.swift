import Foundation
import TestSupport
import Testing

@testable import LinkPreviewCore

/// ``WallTitle`` trims and normalizes byte by byte where it can and skips titles no phrase can match;
/// these tests hold it to the `Character`-level reading (``CharacterLevelTitle``), title by title.
struct WallTitleTests {
    /// Titles as pages write them, and the Unicode that the byte-level path must leave to the
    /// `Character`-level one: combining marks, emoji sequences, Hangul jamo, look-alike scalars.
    static let samples: [String] = [
        // Real titles.
        "Sign in – Google Accounts", "Login • Instagram", "reddit.com: Log in", "Sign in to GitHub · GitHub",
        "How to fix login errors", "Just a moment...", "Attention Required! | Cloudflare", "Member Login",
        "Before you continue to YouTube", "Bevor Sie zu Google weitergehen", "Avant d’accéder à Google",
        "Iniciar sesión en Facebook", "ログイン｜サービス", "Вход — Яндекс ID", "로그인 | 네이버", "Giriş Yap",
        "Log into Facebook", "Access denied", "403 Forbidden", "CAPTCHA", "Sejam bem-vindos",
        "Checking your browser before accessing example.com", "Learn Node — The best way to learn Node.js",
        "🍾🚀 webpack 3: Official Release!! 🚀🍾 | by Sean T. Larkin | Medium", "Сейчас в СМИ",
        "7 интересных наблюдений о первой Матрице | Пикабу", "Tesla on Instagram: “The first Model 3”",
        "The new 'Dune' is a great start — but can't outrun the book", "Before you continue reading",
        "yahoo is part of the yahoo family of brands", "log on to the network",
        // Whitespace, separators and trailing punctuation.
        "LOG IN!!", "  \n\tLogin\r\n ", "\u{00A0}Login\u{3000}", "x\r\ny login", "\u{2028}Login\u{2029}",
        "\u{0085}login\u{0085}", "\u{FEFF}Login", "\u{180E}Login\u{180E}", "...", " . ! ? ", "…", "login…",
        "login ….", "a｜b｜login", "login: reddit", "foo:! login", "a, sign in, b", ":: login ::", "|", "-login-",
        "sign in to", "sign in to a b c d e",
        // Scalars the byte-level path leaves to the `Character`-level one.
        "Lo\u{0301}gin", "Login\u{0301}", "e\u{0301} | login", "\u{212A}elvin login", "İstanbul Login",
        "ΟΔΟΣ | Σ", "👍🏽 login", "❤️ Sign in", "👨‍👩‍👧 Log in", "🇺🇸 Login", "가\u{11A8} 로그인",
        "\u{1100}\u{1161} login", "क्षि login", "مرحبا | تسجيل الدخول", "a\u{037E} login", "sign\u{200D}in",
        "sign\u{2060} in", "login\u{200B}", "ﬁnd login", "Ǆ login", "Login\u{FE0F}",
    ]

    /// Fragments joined into many more titles.
    static let fragments = [
        "Sign In", "log-in", "LOGIN", "anmelden", "iniciar sesión", "вход", "ログイン", "로그인", "just a moment",
        "before you continue to", "access denied", "captcha", "GitHub", "to", "en", "à", "news", "Zürich", "東京",
        "|", "–", "—", "·", "•", "::", "»", "/", ":", "｜", ",", "…", "!", "?", "’", "e\u{301}", "\u{212A}", "🍾",
        "👍🏽", "\u{200D}", "\u{00A0}", "\u{3000}", " ", "  ", "\t", "\r\n",
    ]

    static let generated: [String] = {
        var state: UInt64 = 7
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        return (0..<1500).map { _ in
            (0..<(1 + next(6))).map { _ in fragments[next(fragments.count)] }.joined(separator: next(3) == 0 ? "" : " ")
        }
    }()

    @Test(arguments: samples)
    func readsTitlesAsTheCharacterLevelCodeDoes(_ input: String) {
        expectCharacterLevelReading(of: input)
    }

    @Test(.cpuHeavy) func readsGeneratedTitlesAsTheCharacterLevelCodeDoes() {
        for input in Self.generated {
            expectCharacterLevelReading(of: input)
        }
    }

    private func expectCharacterLevelReading(of input: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let expected = CharacterLevelTitle(input)
        let title = WallTitle(source: "title", text: input)
        #expect(title?.text == expected?.text, "\(input.debugDescription)", sourceLocation: sourceLocation)
        #expect(title?.normalized == expected?.normalized, "\(input.debugDescription)", sourceLocation: sourceLocation)
        #expect(title?.parts == expected?.parts, "\(input.debugDescription)", sourceLocation: sourceLocation)
        guard let title, let expected else { return }
        for phrases in [CaptchaWallRule.challengeTitles, CaptchaWallRule.blockingTitles, ConsentWallRule.titles] {
            #expect(
                title.hasPart(in: phrases) == expected.hasPart(in: phrases.set),
                "\(input.debugDescription)",
                sourceLocation: sourceLocation
            )
        }
        for phrases in [CaptchaWallRule.challengeTitlePrefixes, ConsentWallRule.titlePhrases] {
            #expect(
                title.hasPart(startingWith: phrases, extraWords: 3)
                    == expected.hasPart(startingWith: phrases.list, extraWords: 3),
                "\(input.debugDescription)",
                sourceLocation: sourceLocation
            )
        }
        #expect(
            LoginWallRule.isSignInTitle(title)
                == expected.hasSignInPart(
                    phrases: LoginWallRule.titlePhrases.list,
                    connectors: LoginWallRule.titleConnectors,
                    leadingPhrases: LoginWallRule.leadingTitlePhrases.list
                ),
            "\(input.debugDescription)",
            sourceLocation: sourceLocation
        )
    }

    @Test func findsPhrasesInTitlesOfEveryScript() throws {
        let titles = ["Iniciar sesión – Facebook", "Вход", "ログイン", "로그인 | 네이버", "Sign in – Google Accounts"]
        for text in titles {
            let title = try #require(WallTitle(source: "title", text: text))
            #expect(LoginWallRule.isSignInTitle(title), "\(text)")
        }
        let article = try #require(WallTitle(source: "title", text: "How to fix login errors – Support"))
        #expect(!LoginWallRule.isSignInTitle(article))
    }

    /// The byte-level reading relies on these properties of each byte-comparable scalar: a
    /// `Character` of its own whatever its neighbours, unchanged by NFC, not reordered, and
    /// whitespace exactly when its `Character` is.
    @Test(.cpuHeavy) func byteComparableScalarsStandAlone() {
        var failures: [String] = []
        for value in UInt32(0x80)...0x1FFFF {
            guard let scalar = Unicode.Scalar(value), WallTitle.isByteComparable(scalar) else { continue }
            let alone = String(scalar)
            let ok =
                scalar.properties.canonicalCombiningClass == .notReordered
                && alone.precomposedStringWithCanonicalMapping.unicodeScalars.elementsEqual([scalar])
                && ("a" + alone + alone + "a").count == 4
                && Character(scalar).isWhitespace == scalar.properties.isWhitespace
            if !ok { failures.append(String(value, radix: 16)) }
        }
        #expect(failures.isEmpty, "\(failures.prefix(20))")
    }

    @Test func everyPhraseIsComparedByteWise() {
        let lists = [
            CaptchaWallRule.challengeTitles, CaptchaWallRule.challengeTitlePrefixes, CaptchaWallRule.blockingTitles,
            ConsentWallRule.titles, ConsentWallRule.titlePhrases, LoginWallRule.titlePhrases,
            LoginWallRule.leadingTitlePhrases,
        ]
        for phrase in lists.flatMap(\.list) {
            #expect(phrase.unicodeScalars.allSatisfy(WallTitle.isByteComparable), "\(phrase)")
        }
    }
}

/// The title reading that ``WallTitle`` must reproduce: Foundation trimming, `Character`-level
/// lowercasing and splitting, every part compared.
private struct CharacterLevelTitle {
    let text: String
    let normalized: String
    let parts: [String]

    init?(_ text: String) {
        let text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return nil }
        self.text = text
        let lowered = String(text.lowercased().map { $0 == "\u{2019}" ? "'" : $0 })
        var parts: [String] = []
        var words: [Substring] = []
        func endPart() {
            let part = Self.trimmed(words.joined(separator: " "))
            if !part.isEmpty { parts.append(part) }
            words.removeAll()
        }
        for word in lowered.split(whereSeparator: \.isWhitespace) {
            if Self.separatorWords.contains(word) {
                endPart()
                continue
            }
            let pieces = word.split(separator: "｜", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if index > 0 { endPart() }
                if let last = piece.last, last == ":" || last == "," {
                    words.append(piece.dropLast())
                    endPart()
                } else {
                    words.append(piece)
                }
            }
        }
        endPart()
        normalized = Self.trimmed(lowered.split(whereSeparator: \.isWhitespace).joined(separator: " "))
        self.parts = parts
    }

    func hasPart(in phrases: Set<String>) -> Bool {
        phrases.contains(normalized) || parts.contains { phrases.contains($0) }
    }

    func hasPart(startingWith phrases: [String], extraWords: Int) -> Bool {
        parts.contains { part in
            phrases.contains { phrase in
                part == phrase
                    || (part.hasPrefix(phrase + " ") && Self.wordCount(part.dropFirst(phrase.count)) <= extraWords)
            }
        }
    }

    func hasSignInPart(phrases: [String], connectors: Set<String>, leadingPhrases: [String]) -> Bool {
        parts.contains { part in
            for phrase in phrases {
                if part == phrase { return true }
                if part.hasSuffix(" " + phrase), !part.dropLast(phrase.count + 1).contains(" "),
                    !WallTitle.troubleWords.contains(part.dropLast(phrase.count + 1))
                {
                    return true
                }
                if part.hasPrefix(phrase + " ") {
                    let rest = part.dropFirst(phrase.count + 1).split(separator: " ")
                    if let connector = rest.first, connectors.contains(String(connector)), (2...5).contains(rest.count)
                    {
                        return true
                    }
                }
            }
            return leadingPhrases.contains { phrase in
                part.hasPrefix(phrase + " ") && Self.wordCount(part.dropFirst(phrase.count)) <= 4
            }
        }
    }

    private static let separatorWords: Set<Substring> = ["|", "-", "–", "—", "·", "•", "::", "»", "/", ":", "｜"]

    private static func trimmed(_ text: String) -> String {
        var text = Substring(text)
        while let last = text.last, ".…!? ".contains(last) {
            text.removeLast()
        }
        return String(text)
    }

    private static func wordCount(_ text: Substring) -> Int {
        text.split(whereSeparator: \.isWhitespace).count
    }
}

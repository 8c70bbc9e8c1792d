/// A character encoding of the WHATWG Encoding Standard, identified by its canonical name.
///
/// Every encoding a browser supports is here, and no other: the web's labels resolve to these 40
/// encodings through ``forLabel(_:)`` (see `TextEncoding+Labels.swift`), and ``StreamingTextDecoder``
/// decodes each of them to UTF-8 the way a browser does.
///
/// ```swift
/// let encoding = TextEncoding.forLabel(" Latin1 ")   // windows-1252, as browsers read "latin1"
/// print(encoding?.name ?? "unknown")                 // "windows-1252"
/// ```
public struct TextEncoding: Sendable, Hashable, CustomStringConvertible {
    /// The canonical name, as the Encoding Standard spells it (e.g. `UTF-8`, `windows-1252`, `Shift_JIS`).
    public let name: String

    private init(_ name: String) {
        self.name = name
    }

    /// The canonical name.
    public var description: String { name }

    // MARK: The Encoding

    /// UTF-8, the encoding of almost all of the web.
    public static let utf8 = TextEncoding("UTF-8")

    // MARK: Legacy single-byte encodings

    /// IBM866 (DOS Cyrillic).
    public static let ibm866 = TextEncoding("IBM866")
    /// ISO-8859-2 (Latin-2, Central European).
    public static let iso8859_2 = TextEncoding("ISO-8859-2")
    /// ISO-8859-3 (Latin-3, South European).
    public static let iso8859_3 = TextEncoding("ISO-8859-3")
    /// ISO-8859-4 (Latin-4, North European).
    public static let iso8859_4 = TextEncoding("ISO-8859-4")
    /// ISO-8859-5 (Cyrillic).
    public static let iso8859_5 = TextEncoding("ISO-8859-5")
    /// ISO-8859-6 (Arabic).
    public static let iso8859_6 = TextEncoding("ISO-8859-6")
    /// ISO-8859-7 (Greek).
    public static let iso8859_7 = TextEncoding("ISO-8859-7")
    /// ISO-8859-8 (Hebrew, visual order).
    public static let iso8859_8 = TextEncoding("ISO-8859-8")
    /// ISO-8859-8-I (Hebrew, logical order); decodes exactly like ISO-8859-8.
    public static let iso8859_8I = TextEncoding("ISO-8859-8-I")
    /// ISO-8859-10 (Latin-6, Nordic).
    public static let iso8859_10 = TextEncoding("ISO-8859-10")
    /// ISO-8859-13 (Latin-7, Baltic).
    public static let iso8859_13 = TextEncoding("ISO-8859-13")
    /// ISO-8859-14 (Latin-8, Celtic).
    public static let iso8859_14 = TextEncoding("ISO-8859-14")
    /// ISO-8859-15 (Latin-9, Western European with the euro sign).
    public static let iso8859_15 = TextEncoding("ISO-8859-15")
    /// ISO-8859-16 (Latin-10, South-Eastern European).
    public static let iso8859_16 = TextEncoding("ISO-8859-16")
    /// KOI8-R (Russian).
    public static let koi8R = TextEncoding("KOI8-R")
    /// KOI8-U (Ukrainian; the web's KOI8-U also has the Belarusian letter Ў).
    public static let koi8U = TextEncoding("KOI8-U")
    /// macintosh (Mac OS Roman).
    public static let macintosh = TextEncoding("macintosh")
    /// windows-874 (Thai; also what "TIS-620" and "ISO-8859-11" mean on the web).
    public static let windows874 = TextEncoding("windows-874")
    /// windows-1250 (Central European).
    public static let windows1250 = TextEncoding("windows-1250")
    /// windows-1251 (Cyrillic).
    public static let windows1251 = TextEncoding("windows-1251")
    /// windows-1252 (Western European; also what "ISO-8859-1", "latin1" and "US-ASCII" mean on the web).
    public static let windows1252 = TextEncoding("windows-1252")
    /// windows-1253 (Greek).
    public static let windows1253 = TextEncoding("windows-1253")
    /// windows-1254 (Turkish; also what "ISO-8859-9" means on the web).
    public static let windows1254 = TextEncoding("windows-1254")
    /// windows-1255 (Hebrew).
    public static let windows1255 = TextEncoding("windows-1255")
    /// windows-1256 (Arabic).
    public static let windows1256 = TextEncoding("windows-1256")
    /// windows-1257 (Baltic).
    public static let windows1257 = TextEncoding("windows-1257")
    /// windows-1258 (Vietnamese).
    public static let windows1258 = TextEncoding("windows-1258")
    /// x-mac-cyrillic (Mac OS Cyrillic).
    public static let xMacCyrillic = TextEncoding("x-mac-cyrillic")

    // MARK: Legacy multi-byte encodings

    /// GBK (Simplified Chinese; also what "GB2312" means on the web). Decodes exactly like ``gb18030``.
    public static let gbk = TextEncoding("GBK")
    /// gb18030 (Simplified Chinese, full Unicode coverage).
    public static let gb18030 = TextEncoding("gb18030")
    /// Big5 (Traditional Chinese, with the Hong Kong Supplementary Character Set).
    public static let big5 = TextEncoding("Big5")
    /// EUC-JP (Japanese).
    public static let eucJP = TextEncoding("EUC-JP")
    /// ISO-2022-JP (Japanese, 7-bit with escape sequences).
    public static let iso2022JP = TextEncoding("ISO-2022-JP")
    /// Shift_JIS (Japanese; the web's Shift_JIS is Windows code page 932).
    public static let shiftJIS = TextEncoding("Shift_JIS")
    /// EUC-KR (Korean; the web's EUC-KR is Windows code page 949).
    public static let eucKR = TextEncoding("EUC-KR")

    // MARK: Legacy miscellaneous encodings

    /// The replacement encoding: labels such as "ISO-2022-KR" and "HZ-GB-2312" map here, and a non-empty
    /// input decodes to a single U+FFFD, so content in encodings that were used for attacks is never read.
    public static let replacement = TextEncoding("replacement")
    /// UTF-16BE.
    public static let utf16BE = TextEncoding("UTF-16BE")
    /// UTF-16LE (also what the label "UTF-16" means).
    public static let utf16LE = TextEncoding("UTF-16LE")
    /// x-user-defined: bytes 0x80–0xFF map to U+F780–U+F7FF.
    public static let xUserDefined = TextEncoding("x-user-defined")

    /// Every encoding of the Encoding Standard, in the order of its "Names and labels" table.
    public static let all: [TextEncoding] = [
        .utf8,
        .ibm866, .iso8859_2, .iso8859_3, .iso8859_4, .iso8859_5, .iso8859_6, .iso8859_7, .iso8859_8,
        .iso8859_8I, .iso8859_10, .iso8859_13, .iso8859_14, .iso8859_15, .iso8859_16, .koi8R, .koi8U,
        .macintosh, .windows874, .windows1250, .windows1251, .windows1252, .windows1253, .windows1254,
        .windows1255, .windows1256, .windows1257, .windows1258, .xMacCyrillic,
        .gbk, .gb18030, .big5, .eucJP, .iso2022JP, .shiftJIS, .eucKR,
        .replacement, .utf16BE, .utf16LE, .xUserDefined,
    ]
}

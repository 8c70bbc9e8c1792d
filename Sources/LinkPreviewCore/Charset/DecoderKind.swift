/// How an encoding is decoded.
enum DecoderKind {
    case utf8
    case utf16(bigEndian: Bool)
    case singleByte(PlatformCharset)
    case multiByte(MultiByteDecoder.Scheme)
    case iso2022JP
    case replacement
    case userDefined

    init(_ encoding: TextEncoding) {
        switch encoding {
        case .utf8: self = .utf8
        case .utf16BE: self = .utf16(bigEndian: true)
        case .utf16LE: self = .utf16(bigEndian: false)
        case .shiftJIS: self = .multiByte(.shiftJIS)
        case .eucJP: self = .multiByte(.eucJP)
        case .eucKR: self = .multiByte(.eucKR)
        case .big5: self = .multiByte(.big5)
        case .gbk, .gb18030: self = .multiByte(.gb18030)  // The standard's GBK decoder is gb18030's.
        case .iso2022JP: self = .iso2022JP
        case .replacement: self = .replacement
        case .xUserDefined: self = .userDefined
        default: self = .singleByte(Self.singleByteCharset(encoding))
        }
    }

    /// The platform's name for a single-byte encoding. The Windows code pages are named CP125x (glibc's
    /// WINDOWS-125x is the same table); ISO-8859-8-I decodes as ISO-8859-8 (the "-I" is about display order).
    private static func singleByteCharset(_ encoding: TextEncoding) -> PlatformCharset {
        let name = encoding.name
        if name.hasPrefix("ISO-8859-") {
            let part = name.dropFirst("ISO-8859-".count).prefix { $0.isNumber }
            let number = Int(part) ?? 1
            // kCFStringEncodingISOLatin2 = 0x0202 … ISOLatin10 (8859-16) = 0x0210: 0x0200 + the part number.
            return PlatformCharset(iconvNames: ["ISO-8859-\(part)"], coreFoundationEncoding: UInt32(0x0200 + number))
        }
        if name.hasPrefix("windows-12") {
            let page = name.dropFirst("windows-".count)
            // kCFStringEncodingWindowsLatin1 = 0x0500, Latin2 = 0x0501, Cyrillic = 0x0502, Greek = 0x0503, …
            let order = ["1252", "1250", "1251", "1253", "1254", "1255", "1256", "1257", "1258"]
            let offset = order.firstIndex(of: String(page)) ?? 0
            return PlatformCharset(
                iconvNames: ["CP\(page)", "WINDOWS-\(page)"],
                coreFoundationEncoding: UInt32(0x0500 + offset)
            )
        }
        switch encoding {
        case .ibm866:  // kCFStringEncodingDOSRussian
            return PlatformCharset(iconvNames: ["IBM866", "CP866"], coreFoundationEncoding: 0x0413)
        case .koi8R: return PlatformCharset(iconvNames: ["KOI8-R"], coreFoundationEncoding: 0x0A02)
        case .koi8U: return PlatformCharset(iconvNames: ["KOI8-U"], coreFoundationEncoding: 0x0A08)
        case .macintosh:  // kCFStringEncodingMacRoman
            return PlatformCharset(iconvNames: ["MACINTOSH", "MAC"], coreFoundationEncoding: 0)
        case .windows874:  // kCFStringEncodingDOSThai
            return PlatformCharset(iconvNames: ["CP874", "WINDOWS-874"], coreFoundationEncoding: 0x041D)
        case .xMacCyrillic:
            return PlatformCharset(iconvNames: ["MAC-CYRILLIC", "MACCYRILLIC"], coreFoundationEncoding: 7)
        default: preconditionFailure("\(encoding) is not a single-byte encoding")
        }
    }
}

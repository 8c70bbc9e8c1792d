#if canImport(Darwin)
import CoreFoundation
import Foundation
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A legacy character set as the platform's converter names it.
///
/// The names are chosen for WHATWG behaviour, not by the encoding's own name: the web's Shift_JIS is
/// Windows code page 932, its EUC-KR is code page 949, its GBK is gb18030, and its Big5 is Big5-HKSCS.
/// What the platform still decodes differently is corrected around the converter (see
/// `LegacyDecoderExceptions.swift`).
struct PlatformCharset: Sendable {
    /// iconv names, tried in order (glibc spells some differently from GNU libiconv).
    let iconvNames: [String]
    /// The CoreFoundation `CFStringEncoding` (Apple platforms).
    let coreFoundationEncoding: UInt32

    /// Windows code page 932 (kCFStringEncodingDOSJapanese).
    static let cp932 = PlatformCharset(iconvNames: ["CP932", "WINDOWS-31J"], coreFoundationEncoding: 0x0421)
    /// Windows code page 949, the Unified Hangul Code (kCFStringEncodingDOSKorean).
    static let cp949 = PlatformCharset(iconvNames: ["CP949", "UHC"], coreFoundationEncoding: 0x0422)
    /// GB 18030 (kCFStringEncodingGB_18030_2000).
    static let gb18030 = PlatformCharset(iconvNames: ["GB18030"], coreFoundationEncoding: 0x0632)
    /// Big5 with the Hong Kong Supplementary Character Set (kCFStringEncodingBig5_HKSCS_1999).
    static let big5HKSCS = PlatformCharset(iconvNames: ["BIG5-HKSCS", "BIG5HKSCS"], coreFoundationEncoding: 0x0A06)
    /// EUC-JP (kCFStringEncodingEUC_JP), used only for its JIS X 0212 (0x8F) sequences.
    static let eucJP = PlatformCharset(iconvNames: ["EUC-JP", "EUCJP"], coreFoundationEncoding: 0x0920)
}

/// One open converter from a legacy character set to UTF-8: glibc (or musl) iconv on Linux, CoreFoundation
/// on Apple platforms, where iconv lives in a separate libiconv that this package does not link.
///
/// It is only ever given complete character sequences, so it carries no state from one call to the next;
/// a ``StreamingTextDecoder`` keeps sequences split across chunks itself.
final class PlatformConverter {
    /// What a call to `convert(_:into:)` did.
    ///
    /// When `rejected` is true, the converter met a sequence it cannot convert. With iconv, `converted`
    /// bytes were converted and written; the rejected sequence starts there — or, as glibc's CP949 does for
    /// 0xA2 0xE8, ends there (iconv stepped over it). With CoreFoundation nothing was written and
    /// `converted` is 0: where the sequence is must be found by converting one sequence at a time.
    struct Conversion {
        var converted: Int
        var rejected: Bool
    }

    #if canImport(Darwin)
    private let encoding: CFStringEncoding

    init?(_ charset: PlatformCharset) {
        guard CFStringIsEncodingAvailable(charset.coreFoundationEncoding) else { return nil }
        encoding = charset.coreFoundationEncoding
    }

    /// Whether ``convert(_:into:)`` says where it stopped. CoreFoundation converts all or nothing.
    var locatesErrors: Bool { false }

    /// Converts complete sequences to UTF-8, all or nothing (see ``Conversion``).
    func convert(_ input: UnsafeRawBufferPointer, into output: inout UTF8Output) -> Conversion {
        guard let string = decodeString(input) else { return Conversion(converted: 0, rejected: true) }
        var string = string
        string.withUTF8 { output.append(validUTF8: UnsafeRawBufferPointer($0)) }
        return Conversion(converted: input.count, rejected: false)
    }

    /// Decodes `bytes` completely, or returns nil if any of it cannot be converted.
    func decodeString(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return "" }
        let string = CFStringCreateWithBytes(
            kCFAllocatorDefault,
            base.assumingMemoryBound(to: UInt8.self),
            bytes.count,
            encoding,
            false
        )
        return string.map { $0 as String }
    }
    #else
    private let descriptor: iconv_t

    init?(_ charset: PlatformCharset) {
        for name in charset.iconvNames {
            let descriptor = iconv_open("UTF-8", name)
            if let descriptor, Int(bitPattern: descriptor) != -1 {
                self.descriptor = descriptor
                return
            }
        }
        return nil
    }

    deinit {
        iconv_close(descriptor)
    }

    /// Whether ``convert(_:into:)`` says where it stopped. iconv does.
    var locatesErrors: Bool { true }

    /// Converts complete sequences to UTF-8 up to the first one the converter rejects (see ``Conversion``).
    func convert(_ input: UnsafeRawBufferPointer, into output: inout UTF8Output) -> Conversion {
        guard let base = input.baseAddress, !input.isEmpty else { return Conversion(converted: 0, rejected: false) }
        var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutablePointer(
            mutating: base.assumingMemoryBound(to: CChar.self)
        )
        var inLeft = input.count
        while inLeft > 0 {
            output.reserve(16)
            let free = output.freeSpace
            var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(output.buffer + output.count)
                .assumingMemoryBound(to: CChar.self)
            var outLeft = free
            let result = iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
            output.count += free - outLeft
            if result == -1 {
                if errno == E2BIG {
                    output.flush()
                    continue
                }
                // EILSEQ (no mapping) or EINVAL (the converter wants more).
                iconv(descriptor, nil, nil, nil, nil)
                return Conversion(converted: input.count - inLeft, rejected: true)
            }
        }
        // Converters such as CP1255 hold a character back to compose it with the next; release it.
        output.reserve(16)
        let free = output.freeSpace
        var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(output.buffer + output.count)
            .assumingMemoryBound(to: CChar.self)
        var outLeft = free
        iconv(descriptor, nil, nil, &outPointer, &outLeft)
        output.count += free - outLeft
        return Conversion(converted: input.count, rejected: false)
    }

    /// Decodes `bytes` completely, or returns nil if any of it cannot be converted.
    func decodeString(_ bytes: UnsafeRawBufferPointer) -> String? {
        guard !bytes.isEmpty else { return "" }
        var result: String?
        let scratch = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 64 + bytes.count * 4)
        defer { scratch.deallocate() }
        var collected: [UInt8] = []
        let collect: (UnsafeBufferPointer<UInt8>) -> Void = { collected.append(contentsOf: $0) }
        withUTF8Output(scratch: scratch, emit: collect) { output in
            if !convert(bytes, into: &output).rejected { result = "" }
        }
        guard result != nil else { return nil }
        return String(decoding: collected, as: UTF8.self)
    }
    #endif
}

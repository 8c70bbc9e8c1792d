/// SVG: a root `<svg` element after an optional prolog, with its `width`, `height` and `viewBox`.
extension ImageHeader {
    /// SVG: after an optional UTF-8 BOM, whitespace, XML declaration, processing instructions, comments
    /// and a doctype, the first element must be `<svg`.
    ///
    /// `width` and `height` count when they are plain numbers or numbers in `px`; other units and
    /// percentages do not. When one or both are missing the `viewBox` supplies them (one given → the
    /// other follows the `viewBox` aspect ratio). Nothing beyond the start tag is looked at, and nothing
    /// is read from one the bytes end inside: an attribute still to come (`width` after `viewBox`) would
    /// change the answer, so a cut-off tag gives an SVG without dimensions.
    static func readSVG(_ data: HeaderBytes) -> ImageHeader? {
        guard let rootStart = svgRootStart(data) else { return nil }
        guard let attributes = rootAttributes(data.bytes, from: rootStart + 4) else {
            return sized(.svg, width: nil, height: nil)
        }
        let width = attributes["width"].flatMap(svgLength)
        let height = attributes["height"].flatMap(svgLength)
        guard let viewBox = attributes["viewbox"].flatMap(svgViewBox) else {
            return sized(.svg, width: roundedDimension(width), height: roundedDimension(height))
        }
        switch (width, height) {
        case (let width?, let height?):
            return sized(.svg, width: roundedDimension(width), height: roundedDimension(height))
        case (let width?, nil):
            return sized(.svg, width: roundedDimension(width), height: roundedDimension(width * viewBox.1 / viewBox.0))
        case (nil, let height?):
            return sized(
                .svg,
                width: roundedDimension(height * viewBox.0 / viewBox.1),
                height: roundedDimension(height)
            )
        case (nil, nil):
            return sized(.svg, width: roundedDimension(viewBox.0), height: roundedDimension(viewBox.1))
        }
    }

    /// The offset of `<svg` when it is the first element, or nil.
    static func svgRootStart(_ data: HeaderBytes) -> Int? {
        let bytes = data.bytes
        var offset = data.matches([0xEF, 0xBB, 0xBF], at: 0) ? 3 : 0
        while true {
            while offset < bytes.count, ByteMatching.isSpace(bytes[offset]) { offset += 1 }
            if data.matches("<?", at: offset) {
                guard let end = firstIndex(of: "?>", in: bytes, from: offset + 2) else { return nil }
                offset = end + 2
            } else if data.matches("<!--", at: offset) {
                guard let end = firstIndex(of: "-->", in: bytes, from: offset + 4) else { return nil }
                offset = end + 3
            } else if data.matches("<!", at: offset) {
                guard let end = doctypeEnd(bytes, from: offset + 2) else { return nil }
                offset = end + 1
            } else {
                break
            }
        }
        guard data.matches("<svg", at: offset) else { return nil }
        if let next = data.uint8(at: offset + 4), !(ByteMatching.isSpace(next) || next == 0x3E || next == 0x2F) {
            return nil
        }
        return offset
    }

    /// The offset of the `>` that closes a doctype, skipping an internal subset in brackets.
    private static func doctypeEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var inSubset = false
        for index in start..<max(start, bytes.count) {
            switch bytes[index] {
            case 0x5B: inSubset = true
            case 0x5D: inSubset = false
            case 0x3E where !inSubset: return index
            default: break
            }
        }
        return nil
    }

    /// The offset where `needle` (ASCII) next occurs at or after `start`.
    private static func firstIndex(of needle: StaticString, in bytes: [UInt8], from start: Int) -> Int? {
        let data = HeaderBytes(bytes)
        var index = start
        while index < bytes.count {
            if data.matches(needle, at: index) { return index }
            index += 1
        }
        return nil
    }

    /// The attributes of the start tag beginning at `start`, names lowercased, the first of a name
    /// winning; `nil` when the bytes end before the tag does.
    private static func rootAttributes(_ bytes: [UInt8], from start: Int) -> [String: String]? {
        var attributes: [String: String] = [:]
        var index = start
        func skipSpace() { while index < bytes.count, ByteMatching.isSpace(bytes[index]) { index += 1 } }
        while true {
            skipSpace()
            guard index < bytes.count else { return nil }
            guard bytes[index] != 0x3E, bytes[index] != 0x2F else { break }
            let nameStart = index
            while index < bytes.count, !ByteMatching.isSpace(bytes[index]),
                bytes[index] != 0x3D, bytes[index] != 0x3E, bytes[index] != 0x2F
            {
                index += 1
            }
            guard index > nameStart else {
                index += 1
                continue
            }
            let name = ByteMatching.lowercasedKey(bytes[nameStart..<index])
            skipSpace()
            guard index < bytes.count, bytes[index] == 0x3D else { continue }
            index += 1
            skipSpace()
            guard index < bytes.count else { return nil }
            let value: ArraySlice<UInt8>
            if bytes[index] == 0x22 || bytes[index] == 0x27 {
                let quote = bytes[index]
                guard let close = bytes[(index + 1)...].firstIndex(of: quote) else { return nil }
                value = bytes[(index + 1)..<close]
                index = close + 1
            } else {
                let valueStart = index
                while index < bytes.count, !ByteMatching.isSpace(bytes[index]), bytes[index] != 0x3E { index += 1 }
                value = bytes[valueStart..<index]
            }
            if attributes[name] == nil { attributes[name] = String(decoding: value, as: UTF8.self) }
        }
        return attributes
    }

    /// A `width` / `height` value in CSS pixels: a plain number or one ending in `px`.
    private static func svgLength(_ text: String) -> Double? {
        var number = Substring(text.trimmingASCIIWhitespace())
        if number.lowercased().hasSuffix("px") { number = number.dropLast(2) }
        return svgNumber(Substring(number.trimmingASCIIWhitespace())).flatMap { $0 > 0 ? $0 : nil }
    }

    /// The width and height of a `viewBox` (`min-x min-y width height`, separated by spaces or commas).
    private static func svgViewBox(_ text: String) -> (Double, Double)? {
        let fields = text.split { $0 == " " || $0 == "," || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard fields.count == 4, fields.allSatisfy({ svgNumber(Substring($0)) != nil }),
            let width = svgNumber(fields[2]), let height = svgNumber(fields[3]), width > 0, height > 0
        else { return nil }
        return (width, height)
    }

    /// A finite decimal number (digits, sign, point, exponent), or nil.
    private static func svgNumber(_ text: Substring) -> Double? {
        guard !text.isEmpty, text.utf8.allSatisfy({ ASCII.isDigit($0) || "+-.eE".utf8.contains($0) }),
            let value = Double(text), value.isFinite
        else { return nil }
        return value
    }

    /// A length rounded to whole pixels, or nil when it cannot be a plausible dimension.
    private static func roundedDimension(_ value: Double?) -> Int? {
        guard let value, value.isFinite, value >= 0.5, value <= Double(maxDimension) else { return nil }
        return Int(value.rounded())
    }
}

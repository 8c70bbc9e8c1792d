/// The directives of one or more `Cache-Control` field values (RFC 9111 §5.2), names lowercased, values
/// unquoted. Commas inside quoted strings do not split directives; a malformed directive is skipped.
struct CacheControl {
    struct Directive: Equatable {
        var name: String
        var value: String?
    }

    private(set) var directives: [Directive] = []

    init(_ fieldValues: [String]) {
        for value in fieldValues { parse(Array(value.utf8)) }
    }

    /// Whether a directive `name` is present without a value (`no-cache`, not `no-cache="Set-Cookie"`).
    func hasUnqualified(_ name: String) -> Bool {
        directives.contains { $0.name == name && $0.value == nil }
    }

    /// The first valid delta-seconds value of `name` (`max-age=60`); values past 2³¹ read as 2³¹
    /// (RFC 9111 §1.2.2), anything but digits is ignored.
    func deltaSeconds(_ name: String) -> Int? {
        for directive in directives where directive.name == name {
            guard let value = directive.value, !value.isEmpty, value.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 })
            else { continue }
            return Int(value).map { min($0, Self.maximumDelta) } ?? Self.maximumDelta
        }
        return nil
    }

    static let maximumDelta = 2_147_483_648

    private mutating func parse(_ bytes: [UInt8]) {
        var position = 0
        func skip(_ isSkipped: (UInt8) -> Bool) {
            while position < bytes.count, isSkipped(bytes[position]) { position += 1 }
        }
        func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }
        while position < bytes.count {
            skip { isSpace($0) || $0 == UInt8(ascii: ",") }
            let nameStart = position
            skip { !isSpace($0) && $0 != UInt8(ascii: ",") && $0 != UInt8(ascii: "=") }
            let name = String(decoding: bytes[nameStart..<position], as: UTF8.self).lowercased()
            skip(isSpace)
            var value: String?
            var isMalformed = false
            if position < bytes.count, bytes[position] == UInt8(ascii: "=") {
                position += 1
                skip(isSpace)
                if position < bytes.count, bytes[position] == UInt8(ascii: "\"") {
                    position += 1
                    var unquoted: [UInt8] = []
                    var closed = false
                    while position < bytes.count {
                        let byte = bytes[position]
                        position += 1
                        if byte == UInt8(ascii: "\\"), position < bytes.count {
                            unquoted.append(bytes[position])
                            position += 1
                        } else if byte == UInt8(ascii: "\"") {
                            closed = true
                            break
                        } else {
                            unquoted.append(byte)
                        }
                    }
                    isMalformed = !closed
                    value = String(decoding: unquoted, as: UTF8.self)
                } else {
                    let valueStart = position
                    skip { !isSpace($0) && $0 != UInt8(ascii: ",") }
                    value = String(decoding: bytes[valueStart..<position], as: UTF8.self)
                }
                skip(isSpace)
            }
            // Anything else before the next comma makes the directive malformed.
            if position < bytes.count, bytes[position] != UInt8(ascii: ",") {
                isMalformed = true
                skip { $0 != UInt8(ascii: ",") }
            }
            if !name.isEmpty, !isMalformed { directives.append(Directive(name: name, value: value)) }
        }
    }
}

import Foundation
import LinkPreviewCore

/// Runs the html5lib tokenizer tests (`tokenizer/*.test`) against ``HTMLTokenizer``: token output,
/// not error codes. Each test counts once per initial state it lists.
struct TokenizerConformance {
    struct Report {
        /// WHATWG tokenizer cases (`tests`), each run on the whole input at once.
        var passed = 0
        var total = 0
        /// The same cases fed one byte at a time: proves a token may be split anywhere.
        var passedStreaming = 0
        /// html5lib's `xmlViolationTests` describe an XML-coercing mode, not the WHATWG tokenizer;
        /// reported apart.
        var xmlViolationPassed = 0
        var xmlViolationTotal = 0
        var failures: [String] = []
    }

    /// A token as the tests write it; character tokens are coalesced.
    enum Token: Equatable, CustomStringConvertible {
        case doctype(name: String?, publicID: String?, systemID: String?, correct: Bool)
        case startTag(name: String, attributes: [String: String], selfClosing: Bool)
        case endTag(name: String)
        case comment(String)
        case character(String)

        var description: String {
            switch self {
            case let .doctype(n, p, s, c): "DOCTYPE(\(n ?? "nil"), \(p ?? "nil"), \(s ?? "nil"), \(c))"
            case let .startTag(n, a, s): "StartTag(\(n), \(a.sorted { $0.key < $1.key }), \(s))"
            case let .endTag(n): "EndTag(\(n))"
            case let .comment(t): "Comment(\(t.debugDescription))"
            case let .character(t): "Character(\(t.debugDescription))"
            }
        }
    }

    /// Collects tokens from the tokenizer in the tests' form.
    struct CollectingSink: HTMLTokenSink {
        var tokens: [Token] = []
        var text: [UInt8] = []

        mutating func flushText() {
            if !text.isEmpty { tokens.append(.character(String(decoding: text, as: UTF8.self))) }
            text.removeAll()
        }
        mutating func characters(_ bytes: UnsafeBufferPointer<UInt8>) { text.append(contentsOf: bytes) }
        mutating func startTag(_ tag: HTMLTag) {
            flushText()
            var attributes: [String: String] = [:]
            for (name, value) in tag.attributes { attributes[name] = value }
            tokens.append(.startTag(name: tag.name, attributes: attributes, selfClosing: tag.isSelfClosing))
        }
        mutating func endTag(_ tag: HTMLTag) {
            flushText()
            tokens.append(.endTag(name: tag.name))
        }
        mutating func comment(_ bytes: UnsafeBufferPointer<UInt8>) {
            flushText()
            tokens.append(.comment(String(decoding: bytes, as: UTF8.self)))
        }
        mutating func doctype(_ doctype: HTMLDoctype) {
            flushText()
            tokens.append(
                .doctype(
                    name: doctype.name,
                    publicID: doctype.publicIdentifier,
                    systemID: doctype.systemIdentifier,
                    correct: !doctype.forceQuirks
                )
            )
        }
    }

    /// Runs every `*.test` file in `directory`.
    static func run(directory: URL) throws -> Report {
        var report = Report()
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "test" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        for file in files {
            let json = try CorpusJSON.object(in: file)
            for test in json["xmlViolationTests"] as? [[String: Any]] ?? [] {
                report.xmlViolationTotal += 1
                if runCase(test, stateName: "Data state", chunkSize: nil) == nil { report.xmlViolationPassed += 1 }
            }
            for test in json["tests"] as? [[String: Any]] ?? [] {
                for stateName in test["initialStates"] as? [String] ?? ["Data state"] {
                    report.total += 1
                    let name = "\(file.lastPathComponent): \(test["description"] ?? "") [\(stateName)]"
                    if let failure = runCase(test, stateName: stateName, chunkSize: nil) {
                        report.failures.append("\(name): \(failure)")
                    } else {
                        report.passed += 1
                    }
                    if let failure = runCase(test, stateName: stateName, chunkSize: 1) {
                        report.failures.append("\(name) (1-byte chunks): \(failure)")
                    } else {
                        report.passedStreaming += 1
                    }
                }
            }
        }
        return report
    }

    /// Returns nil when the case passes, else what differed.
    static func runCase(_ test: [String: Any], stateName: String, chunkSize: Int?) -> String? {
        let doubleEscaped = test["doubleEscaped"] as? Bool ?? false
        guard var input = test["input"] as? String, let output = test["output"] as? [Any] else {
            return "unreadable test"
        }
        if doubleEscaped { input = unescape(input) }
        let expected = output.compactMap { token(from: $0, doubleEscaped: doubleEscaped) }
        let initial: HTMLTokenizer.InitialState =
            switch stateName {
            case "PLAINTEXT state": .plaintext
            case "RCDATA state": .rcdata
            case "RAWTEXT state": .rawtext
            case "Script data state": .scriptData
            case "CDATA section state": .cdataSection
            default: .data
            }
        var tokenizer = HTMLTokenizer(
            initialState: initial,
            lastStartTag: test["lastStartTag"] as? String,
            limits: .unlimited,
            switchesContentModel: false
        )
        var sink = CollectingSink()
        let bytes = Array(input.utf8)
        if let chunkSize {
            for start in stride(from: 0, to: bytes.count, by: chunkSize) {
                tokenizer.feed(bytes[start..<min(start + chunkSize, bytes.count)], into: &sink)
            }
        } else {
            tokenizer.feed(bytes, into: &sink)
        }
        tokenizer.finish(into: &sink)
        sink.flushText()
        return sink.tokens == coalesce(expected) ? nil : "expected \(expected), got \(sink.tokens)"
    }

    static func token(from value: Any, doubleEscaped: Bool) -> Token? {
        guard let array = value as? [Any], let kind = array.first as? String else { return nil }
        func text(_ index: Int) -> String? {
            guard index < array.count, let s = array[index] as? String else { return nil }
            return doubleEscaped ? unescape(s) : s
        }
        switch kind {
        case "DOCTYPE":
            let correct = array.count > 4 ? array[4] as? Bool ?? false : false
            return .doctype(name: text(1), publicID: text(2), systemID: text(3), correct: correct)
        case "StartTag":
            var attributes: [String: String] = [:]
            for (k, v) in (array.count > 2 ? array[2] as? [String: String] : nil) ?? [:] {
                attributes[doubleEscaped ? unescape(k) : k] = doubleEscaped ? unescape(v) : v
            }
            return .startTag(
                name: text(1) ?? "",
                attributes: attributes,
                selfClosing: array.count > 3 && (array[3] as? Bool ?? false)
            )
        case "EndTag": return .endTag(name: text(1) ?? "")
        case "Comment": return .comment(text(1) ?? "")
        case "Character": return .character(text(1) ?? "")
        default: return nil
        }
    }

    static func coalesce(_ tokens: [Token]) -> [Token] {
        var result: [Token] = []
        for token in tokens {
            if case let .character(b) = token, case let .character(a)? = result.last {
                result[result.count - 1] = .character(a + b)
            } else {
                result.append(token)
            }
        }
        return result
    }

    /// Undoes the tests' second `\uHHHH` escaping; a lone surrogate becomes U+FFFD, as a decoder would.
    static func unescape(_ s: String) -> String {
        var out = String.UnicodeScalarView()
        var scalars = Array(s.unicodeScalars)[...]
        while let c = scalars.first {
            scalars = scalars.dropFirst()
            if c == "\\", scalars.first == "u", scalars.count >= 5,
                let v = UInt32(String(String.UnicodeScalarView(scalars.dropFirst().prefix(4))), radix: 16)
            {
                scalars = scalars.dropFirst(5)
                out.append(Unicode.Scalar(v) ?? "\u{FFFD}")
            } else {
                out.append(c)
            }
        }
        return String(out)
    }
}

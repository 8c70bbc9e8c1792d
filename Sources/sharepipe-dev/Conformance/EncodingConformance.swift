import Foundation
import LinkPreviewCore

/// Runs html5lib's encoding tests (`encoding/*.dat`, `encoding/scripted/*.dat`, `encoding/chardet/*`)
/// against ``CharsetSniffer``.
///
/// A `.dat` file holds cases as a `#data` section (the document's bytes) followed by an `#encoding`
/// section (the encoding a browser ends up with). A file in `chardet/` is one document whose expected
/// encoding is in its name (`test_big5.txt`). Both sides are compared as encodings, through
/// ``TextEncoding/forLabel(_:)``, so `ISO-8859-1` and `windows-1252` are the same.
///
/// html5lib's expectations are those of a whole browser: some need scripts to run, a `<meta>` found only
/// while parsing (past the prescan's 1024 bytes), or statistical detection. The figure that measures the
/// sniffer is therefore the one for the cases a `<meta>` prescan decides: no BOM, and the prescan of the
/// first 1024 bytes returns an encoding.
struct EncodingConformance {
    /// The outcome of a run.
    struct Report: Sendable, CustomStringConvertible {
        /// Cases whose encoding the `<meta>` prescan decides, and how many of those came out right.
        var prescanDecidedPassed = 0
        var prescanDecidedTotal = 0
        /// All cases, decided as ``HTMLInputDecoder`` does with no transport charset (first 1024 bytes).
        var passed = 0
        var total = 0
        /// One line per failed case: where it is, what was expected, what was decided and why.
        var failures: [String] = []

        var description: String {
            var lines = [
                "encoding conformance (html5lib): prescan-decided \(prescanDecidedPassed)/\(prescanDecidedTotal), "
                    + "all \(passed)/\(total)"
            ]
            lines += failures.map { "  FAIL \($0)" }
            return lines.joined(separator: "\n")
        }
    }

    /// One test case.
    struct Case {
        var location: String
        var data: [UInt8]
        var expectedLabel: String
    }

    /// Runs every case found under `directory` (html5lib-tests' `encoding` folder).
    ///
    /// - Parameter directory: The folder holding `tests1.dat`, `scripted/` and `chardet/`.
    /// - Returns: The figures and the failures.
    /// - Throws: When a file cannot be read.
    static func run(directory: URL) throws -> Report {
        var report = Report()
        for testCase in try cases(in: directory) {
            check(testCase, into: &report)
        }
        return report
    }

    static func check(_ testCase: Case, into report: inout Report) {
        report.total += 1
        guard let expected = TextEncoding.forLabel(testCase.expectedLabel) else {
            report.failures.append(
                "\(testCase.location): expected label \"\(testCase.expectedLabel)\" is not an encoding"
            )
            return
        }
        let prefix = Array(testCase.data.prefix(CharsetSniffer.prescanByteLimit))
        let decision = CharsetSniffer.determine(prefix)
        if decision.encoding == expected {
            report.passed += 1
        } else {
            report.failures.append(
                "\(testCase.location): expected \(expected), decided \(decision.encoding) (\(decision.source))"
            )
        }
        let hasBOM = prefix.withUnsafeBytes { CharsetSniffer.bomSniff($0) } != nil
        if !hasBOM, let prescanned = prefix.withUnsafeBytes({ CharsetSniffer.prescan($0) }) {
            report.prescanDecidedTotal += 1
            if prescanned == expected { report.prescanDecidedPassed += 1 }
        }
    }

    /// Reads the cases of every `.dat` file under `directory`, and every file under a `chardet` folder.
    static func cases(in directory: URL) throws -> [Case] {
        let files =
            FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }
            .filter { !$0.hasDirectoryPath }
            .sorted { $0.path < $1.path } ?? []
        var result: [Case] = []
        for file in files {
            let name = file.path.dropFirst(directory.path.count).drop { $0 == "/" }
            let bytes = [UInt8](try Data(contentsOf: file))
            if file.pathExtension == "dat" {
                result += parseDat(bytes, name: String(name))
            } else if file.deletingLastPathComponent().lastPathComponent == "chardet" {
                // test_big5.txt: the expected encoding is the name after "test_".
                let stem = file.deletingPathExtension().lastPathComponent
                let label = stem.hasPrefix("test_") ? String(stem.dropFirst(5)) : stem
                result.append(Case(location: String(name), data: bytes, expectedLabel: label))
            }
        }
        return result
    }

    /// Splits a `.dat` file into cases. Sections start with a line `#name`; the `#data` section's bytes
    /// run up to the newline before `#encoding`.
    static func parseDat(_ bytes: [UInt8], name: String) -> [Case] {
        var cases: [Case] = []
        let lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        var index = 0
        var number = 0
        while index < lines.count {
            guard lines[index].elementsEqual("#data".utf8) else {
                index += 1
                continue
            }
            number += 1
            index += 1
            var data: [UInt8] = []
            var first = true
            while index < lines.count, !lines[index].elementsEqual("#encoding".utf8) {
                if !first { data.append(UInt8(ascii: "\n")) }
                data += lines[index]
                first = false
                index += 1
            }
            index += 1
            var label = ""
            while index < lines.count, label.isEmpty, !lines[index].starts(with: "#data".utf8) {
                label = String(decoding: lines[index], as: UTF8.self).trimmingCharacters(in: .whitespaces)
                index += 1
            }
            cases.append(Case(location: "\(name)#\(number)", data: data, expectedLabel: label))
        }
        return cases
    }
}

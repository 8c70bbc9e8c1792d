import Foundation
import SharePipeCLISupport

/// The figures a conformance run measured, by name (`tokenizer.passed`, `extraction.whole.title`, …),
/// and the ratchet check against the floors recorded in the repository.
struct ConformanceFigures {
    var values: [String: Double] = [:]

    /// Every figure name a run over a whole corpus measures: the only names a floor file may hold.
    static let names: Set<String> = {
        var names: Set<String> = ["tokenizer.passed", "tokenizer.streamingPassed", "encoding.prescanDecidedPassed"]
        for mode in ExtractionConformance.Mode.allCases {
            for field in ExtractionConformance.fields { names.insert("extraction.\(mode.key).\(field)") }
        }
        return names
    }()

    /// Reads floors from a JSON object of figure name → minimum, refusing a file that is missing, is not
    /// such an object, or names a figure no run measures (a misspelt floor would never be checked).
    static func load(from file: URL) throws -> ConformanceFigures {
        let path = file.path
        guard FileManager.default.fileExists(atPath: path) else {
            throw CLIError(
                "No floor file at \(path): give --floor a JSON file of figure name → minimum, "
                    + "such as .ci/conformance-floor.json."
            )
        }
        let object: Any
        let data: Data
        do {
            data = try Data(contentsOf: file)
            object = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw CLIError("\(path) is not valid JSON; it must be an object of figure name → minimum.")
        }
        guard let floors = object as? [String: Any] else {
            throw CLIError("\(path) must be a JSON object of figure name → minimum.")
        }
        for name in floors.keys.sorted() where !names.contains(name) {
            throw CLIError(
                "\(path) names “\(name)”, which is not a figure conformance measures. The figures are: "
                    + names.sorted().joined(separator: ", ") + "."
            )
        }
        // Decoded as numbers by JSONDecoder: JSONSerialization's NSNumber cannot tell 0 and 1 from
        // false and true on Linux.
        guard let values = try? JSONDecoder().decode([String: Double].self, from: data) else {
            throw CLIError(
                "\(path): every floor must be a number (\"tokenizer.passed\": 5187), not text or true/false."
            )
        }
        return ConformanceFigures(values: values)
    }

    /// A line for each floor that a measured figure is below, and for each floor whose figure was not
    /// measured (the corpus lacks that part: a floor that is never checked must not pass).
    func drops(below floors: ConformanceFigures) -> [String] {
        floors.values.keys.sorted().compactMap { name in
            guard let minimum = floors.values[name] else { return nil }
            guard let value = values[name] else {
                return "\(name) was not measured (the corpus lacks its part), the floor is "
                    + String(format: "%.1f", minimum)
            }
            guard value + 1e-9 < minimum else { return nil }
            return "\(name) is \(String(format: "%.1f", value)), the floor is \(String(format: "%.1f", minimum))"
        }
    }
}

import Foundation

/// The figures a conformance run measured, by name (`tokenizer.passed`, `extraction.whole.title`, …),
/// and the ratchet check against the floors recorded in the repository.
struct ConformanceFigures {
    var values: [String: Double] = [:]

    /// Reads floors from a JSON object of name → minimum.
    static func load(from file: URL) throws -> ConformanceFigures {
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: file))
        guard let floors = object as? [String: Any] else {
            throw CLIError("\(file.path) must be a JSON object of figure name → minimum.")
        }
        return ConformanceFigures(values: floors.compactMapValues { ($0 as? NSNumber)?.doubleValue })
    }

    /// A line for each floor that a measured figure is below (a figure not measured is skipped: the
    /// corpus may hold only some parts).
    func drops(below floors: ConformanceFigures) -> [String] {
        floors.values.keys.sorted().compactMap { name in
            guard let minimum = floors.values[name], let value = values[name], value + 1e-9 < minimum else {
                return nil
            }
            return "\(name) is \(String(format: "%.1f", value)), the floor is \(String(format: "%.1f", minimum))"
        }
    }
}

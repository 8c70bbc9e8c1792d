import Foundation
import SharePipeCLISupport

/// A JSON file of the corpus (`pages.json`, an html5lib `.test` file) read with an error that names
/// the file and says what to do, not Foundation's "The data is not in the correct format."
enum CorpusJSON {
    /// The top-level array of objects in `file`.
    static func objects(in file: URL) throws -> [[String: Any]] {
        guard let objects = try value(of: file) as? [[String: Any]] else {
            throw CLIError("\(file.path) is not a JSON array of objects: restore it from the corpus.")
        }
        return objects
    }

    /// The top-level object in `file`.
    static func object(in file: URL) throws -> [String: Any] {
        guard let object = try value(of: file) as? [String: Any] else {
            throw CLIError("\(file.path) is not a JSON object: restore it from the corpus.")
        }
        return object
    }

    private static func value(of file: URL) throws -> Any {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw CLIError("Cannot read \(file.path) (\(error.localizedDescription)): check the corpus folder.")
        }
        do {
            return try JSONSerialization.jsonObject(with: data)
        } catch {
            let detail = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            throw CLIError("\(file.path) is not valid JSON (\(detail)): restore it from the corpus.")
        }
    }
}

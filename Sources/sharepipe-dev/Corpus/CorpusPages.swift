import Foundation

/// The pages of a corpus (`pages.json` + `pages/`), loaded into memory for benchmarking.
struct CorpusPages {
    struct Page {
        var name: String
        var url: URL
        var bytes: [UInt8]
    }

    var pages: [Page]
    var totalBytes: Int { pages.reduce(0) { $0 + $1.bytes.count } }

    init(pagesJSON: URL) throws {
        let cases = try CorpusJSON.objects(in: pagesJSON)
        let folder = pagesJSON.deletingLastPathComponent()
        pages = try cases.compactMap { entry in
            guard let path = entry["html"] as? String, let url = (entry["url"] as? String).flatMap(URL.init(string:))
            else { return nil }
            let bytes = try Data(contentsOf: folder.appendingPathComponent(path))
            return Page(name: entry["name"] as? String ?? path, url: url, bytes: Array(bytes))
        }
    }
}

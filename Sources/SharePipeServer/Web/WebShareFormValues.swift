import Foundation
import SharePipeProtocol

/// What the share form (`share-form.mustache`, on `/share` and "My links") shows: empty, or filled
/// in from what another app shared (the Web Share Target's title, text, link and files, the files
/// already stored as the user's uploads), with the people the user shares with to pick from.
struct WebShareFormValues {
    struct Person {
        var handle: String
        var label: String
    }

    /// The form's idempotency key: the form sent twice records one share.
    var formKey = UUID().uuidString
    var csrf: String
    /// The most files the form takes, and their size, in words.
    var fileLimit: String
    var url = ""
    var note = ""
    var to = ""
    /// The shared page's title, from the app that shared it (kept as the share's provided title).
    /// Not `title`: a section looks a name up in the page around it when the form lacks it, and the
    /// page's `title` would become the share's.
    var sharedTitle: String?
    /// The files the app shared, stored already: ``Uploaded`` as JSON in a hidden field.
    var uploaded: String?
    var uploadedFiles: [String] = []
    var hasUploadedFiles = false
    var uploadedCount = ""
    var people: [Person] = []
    var hasPeople = false

    /// A file of the form stored before it was shown (the share target's), by hash and name.
    struct Uploaded: Codable, Hashable {
        var sha256: String
        var name: String?
    }

    /// The people of the user's latest conversations, each once, in order: who the form suggests.
    mutating func suggest(from conversations: [Conversation], viewerID: UUID) {
        var seen = Set<UUID>()
        people = conversations.flatMap(\.members).filter { $0.id != viewerID && seen.insert($0.id).inserted }
            .prefix(Self.maxSuggestions)
            .map { Person(handle: $0.handle, label: WebCardValues.label(for: $0)) }
        hasPeople = !people.isEmpty
    }

    /// Shows `files` as attached already, carried by the form to the share.
    mutating func attach(_ files: [Uploaded]) {
        guard !files.isEmpty else { return }
        uploaded = (try? String(decoding: JSONEncoder().encode(files), as: UTF8.self)) ?? nil
        uploadedFiles = files.map { $0.name ?? "a file" }
        hasUploadedFiles = true
        uploadedCount = files.count == 1 ? "1 file" : "\(files.count) files"
    }

    /// The most people the form suggests.
    static let maxSuggestions = 12

    /// The files a form's `uploaded` field names; none when it is absent or not what the form wrote.
    static func uploaded(_ field: String?) -> [Uploaded] {
        guard let field, let data = field.data(using: .utf8) else { return [] }
        return (try? JSONDecoder().decode([Uploaded].self, from: data)) ?? []
    }
}

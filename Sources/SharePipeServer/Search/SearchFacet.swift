import Crypto
import Foundation

/// The words a document carries for the filters of a search, beside its text: its owner, who shared
/// it in, the conversations it is in, its site. Each is a letter and hexadecimal digits, a word of
/// ``SearchText`` like any other, stored where typed words are never looked for (a column of its
/// own on SQLite, the weight `D` on PostgreSQL): a filter is one more word every result must have.
enum SearchFacet {
    /// The user whose document it is: every search asks for it, so one person's search never reads
    /// another's documents.
    static func owner(_ userID: UUID) -> String { "u" + hex(userID) }

    /// Someone who shared the link in a conversation the owner is in (the owner too, for their own).
    static func from(_ userID: UUID) -> String { "f" + hex(userID) }

    /// A conversation the link was shared in that the owner is in.
    static func conversation(_ id: UUID) -> String { "c" + hex(id) }

    /// The link's site: its host, lowercased and without a leading `www.` (`example.com` finds
    /// `www.example.com`), as the first 16 hexadecimal digits of its SHA-256.
    static func site(host: String) -> String? {
        var host = host.lowercased()
        while host.hasSuffix(".") { host.removeLast() }
        if host.hasPrefix("www.") { host.removeFirst(4) }
        guard !host.isEmpty else { return nil }
        return "s" + SHA256.hash(data: Data(host.utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
    }

    /// `site(host:)` of what a person typed as a site: a host, or a URL whose host is taken.
    static func site(typed text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.contains("://"), let host = URL(string: trimmed)?.host() { return site(host: host) }
        let host = trimmed.split(separator: "/", maxSplits: 1).first.map(String.init) ?? trimmed
        guard !host.isEmpty, host.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" }) else {
            return nil
        }
        return site(host: host)
    }

    private static func hex(_ id: UUID) -> String {
        id.uuidString.lowercased().filter { $0 != "-" }
    }
}

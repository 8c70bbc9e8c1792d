import Foundation
import SharePipeProtocol

/// How the page names a conversation to one of its members: a direct one by the other person
/// (display name and handle, which nobody else can take), a group by its title or, untitled, by the
/// others' names, with its size. Names shown side by side (the reply picker) are never two alike.
enum WebConversationNames {
    /// `Ada Lovelace (@ada)`; `Bakers · group of 4`; `Ada and Bob · group of 3`.
    static func name(_ conversation: Conversation, viewerID: UUID) -> String {
        let others = conversation.members.filter { $0.id != viewerID }
        switch conversation.kind {
        case .direct:
            // Its two members never change: the other is gone only when their account was deleted.
            return others.first.map(WebCardValues.label(for:)) ?? User.deletedDisplayName
        case .group:
            let name = conversation.title ?? WebCardValues.list(others.map(\.displayName))
            return "\(name) · group of \(conversation.members.count)"
        }
    }

    /// The names of `conversations`, in their order, none two alike: a name that two share gets
    /// the others' handles, and one still shared its place among them (`(2)`).
    static func distinctNames(_ conversations: [Conversation], viewerID: UUID) -> [String] {
        var names = conversations.map { name($0, viewerID: viewerID) }
        let repeated = Set(Dictionary(grouping: names, by: { $0 }).filter { $0.value.count > 1 }.keys)
        for (index, conversation) in conversations.enumerated() where repeated.contains(names[index]) {
            let handles = conversation.members.filter { $0.id != viewerID }.map { "@" + $0.handle }
            names[index] += " (" + handles.joined(separator: ", ") + ")"
        }
        var seen: [String: Int] = [:]
        for index in names.indices {
            seen[names[index], default: 0] += 1
            if let count = seen[names[index]], count > 1 { names[index] += " (\(count))" }
        }
        return names
    }
}

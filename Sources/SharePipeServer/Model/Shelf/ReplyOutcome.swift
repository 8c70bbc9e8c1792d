public import Foundation

/// What a reply to a shelf item did.
public enum ReplyOutcome: Sendable, Hashable {
    /// Posted into this conversation as this message.
    case posted(conversationID: UUID, messageID: UUID)
    /// An earlier reply with the same idempotency key and request posted this message; nothing new.
    case replayed(conversationID: UUID, messageID: UUID)
    /// The idempotency key was used for another request.
    case keyReused
    /// The link came from several conversations and none was chosen: these are the choices.
    case chooseConversation([UUID])
    /// Not on the user's shelf, or `conversationID` is not one it came from.
    case notFound
    /// On the user's shelf (kept there by a pin) but from no conversation they are still in:
    /// there is nobody to reply to.
    case noConversation
}

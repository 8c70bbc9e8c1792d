import Foundation
import SharePipeProtocol

extension ReplyOutcome {
    /// Why the reply was not posted, as the API and the web page answer it; `nil` when it was.
    /// - Parameter listingChoices: Whether to name the conversations to choose from by id (for an API
    ///   client, which sends one back as `conversationId`; a page shows them as a menu instead).
    func problem(listingChoices: Bool) -> ProblemDetails? {
        switch self {
        case .posted, .replayed:
            return nil
        case .keyReused:
            return .idempotencyKeyReused
        case .chooseConversation(let choices):
            let list = choices.map { $0.uuidString.lowercased() }.joined(separator: ", ")
            return .validationFailed([
                .init(
                    pointer: "/conversationId",
                    detail: listingChoices
                        ? "The link came from several conversations; choose one of: \(list)."
                        : "This link came from several conversations: choose the one to reply in."
                )
            ])
        case .noConversation:
            return .validationFailed([
                .init(
                    pointer: "",
                    detail: "This link came from conversations you are no longer in: there is nobody to reply to. "
                        + "Share it to someone instead."
                )
            ])
        case .notFound:
            return .notFound(detail: "No such item on your shelf, or not from that conversation.")
        }
    }
}

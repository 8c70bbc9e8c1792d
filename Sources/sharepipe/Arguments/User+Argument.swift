import ArgumentParser
import SharePipeProtocol

extension User {
    /// A handle given on the command line, as the server keeps it (``User/handle(from:)``: lower-cased,
    /// without a leading `@`); a ``ValidationError`` that gives the rule when it breaks it.
    static func handle(argument text: String) throws -> String {
        guard let handle = User.handle(from: text) else {
            throw ValidationError("'\(text)' is not a handle. \(User.handleRule)")
        }
        return handle
    }
}

public import ArgumentParser

extension ParsableCommand {
    /// What the command line says when `arguments` are given to this command: the message of the error
    /// parsing or validating them raised, or "" when they are accepted.
    public static func message(parsing arguments: [String]) -> String {
        do {
            _ = try parseAsRoot(arguments)
            return ""
        } catch {
            return message(for: error)
        }
    }
}

/// An error the command-line tools report as one line, without a stack of types.
package struct CLIError: Error, CustomStringConvertible {
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// Removal of `.` and `..` segments from a path (RFC 3986 §5.2.4).
enum DotSegments {
    /// The path without dot segments: `"/a/./b/../c"` → `"/a/c"`, `"/.."` → `"/"`, `"/a/b/.."` → `"/a/"`.
    ///
    /// Only literal `.` and `..` segments count, so percent-encoding must be normalised first (`%2E` → `.`).
    static func removed(from path: String) -> String {
        guard path.contains(".") else { return path }
        var input = Substring(path)
        var output: [Substring] = []  // Segments moved to the output, each with its leading "/" if it had one.
        while !input.isEmpty {
            if input.hasPrefix("../") {
                input.removeFirst(3)
            } else if input.hasPrefix("./") {
                input.removeFirst(2)
            } else if input.hasPrefix("/./") {
                input.removeFirst(2)
            } else if input == "/." {
                input = "/"
            } else if input.hasPrefix("/../") {
                input.removeFirst(3)
                _ = output.popLast()
            } else if input == "/.." {
                input = "/"
                _ = output.popLast()
            } else if input == "." || input == ".." {
                input = ""
            } else {
                let start = input.startIndex
                let searchFrom = input.hasPrefix("/") ? input.index(after: start) : start
                let end = input[searchFrom...].firstIndex(of: "/") ?? input.endIndex
                output.append(input[start..<end])
                input = input[end...]
            }
        }
        return output.joined()
    }
}

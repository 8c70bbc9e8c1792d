import Foundation
import SharePipeKit

/// What `sharepipe share` shows on a terminal while a share's files go up: one line on standard
/// error, redrawn as the server stores each piece (`Uploading beach.jpg (1 of 3)  ████░░░░  12.0 MB
/// of 25.0 MB`), cleared when the file is complete. Nothing when standard error is no terminal.
enum UploadProgressLine {
    /// The progress reporter for ``ShareUploader/progress``: `nil` when standard error is no terminal.
    static func reporter() -> (@Sendable (UploadProgress) -> Void)? {
        guard ProgressBar.isTerminal else { return nil }
        return { progress in FileHandle.standardError.write(Data(line(progress).utf8)) }
    }

    /// The characters that redraw the line for `progress` (clear it once the file is complete).
    static func line(_ progress: UploadProgress) -> String {
        let clear = "\r\u{1B}[2K"
        guard !progress.isComplete else { return clear }
        let width = 24
        let filled = progress.byteCount == 0 ? width : Int(progress.bytesStored * Int64(width) / progress.byteCount)
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let place = progress.count > 1 ? " (\(progress.index + 1) of \(progress.count))" : ""
        return clear + "Uploading \(progress.name)\(place)  \(bar)  \(megabytes(progress.bytesStored)) of \(megabytes(progress.byteCount))"
    }

    static func megabytes(_ bytes: Int64) -> String {
        String(format: "%.1f MB", Double(bytes) / 1_000_000)
    }
}

import Crypto
import Foundation
import MultipartKit
import NIOCore
import SharePipeProtocol

/// The web page's share form (`multipart/form-data`, so that it works without JavaScript): its
/// text fields, and each file written to a temporary file of its own as it arrives, hashed on the
/// way, never held whole in memory.
///
/// Nothing of it is the user's yet: the caller checks the CSRF token and then moves the files into
/// the user's uploads (``UploadService``), and removes the temporary files either way
/// (``removeFiles()``).
struct WebShareForm {
    /// A file of the form, in a temporary file.
    struct File {
        /// The name the browser gave, without any folder.
        var name: String?
        var file: URL
        var size: Int64
        var sha256: String
    }

    /// The form's limits: ``ServerConfiguration/Uploads/maxFileBytes`` a file, ``ShareLimits``'s
    /// files per share, and for the rest of the form (its text fields and part headers) 64 KiB.
    struct Limits {
        var maxFileBytes: Int64
        var maxFiles: Int
        var maxTextBytes = 64 << 10
    }

    /// The text fields by name (the last of a name wins).
    var fields: [String: String] = [:]
    var files: [File] = []
    /// Where the files are.
    let folder: URL

    /// Removes the temporary files.
    func removeFiles() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The boundary of a `multipart/form-data` content type, or nil when it is none.
    static func boundary(of contentType: String?) -> String? {
        guard let contentType else { return nil }
        let parts = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.first?.lowercased() == "multipart/form-data" else { return nil }
        for part in parts.dropFirst() where part.lowercased().hasPrefix("boundary=") {
            let value = part.dropFirst("boundary=".count)
            let unquoted = value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 ? value.dropFirst().dropLast() : value
            return unquoted.isEmpty || unquoted.count > 70 ? nil : String(unquoted)
        }
        return nil
    }

    /// Reads a form from `body`, in `folder` (made here). A file over the limit, too many files or
    /// too much text stop the reading with the problem to show; so does a body that is no form.
    static func read(
        _ body: some AsyncSequence<ByteBuffer, any Error>,
        boundary: String,
        limits: Limits,
        in folder: URL
    ) async throws -> WebShareForm {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let reader = PartReader(limits: limits, folder: folder)
        let parser = MultipartParser(boundary: boundary)
        parser.onHeader = { name, value in reader.header(name, value) }
        parser.onBody = { buffer in reader.body(&buffer) }
        parser.onPartComplete = { reader.partComplete() }
        do {
            for try await piece in body {
                try parser.execute(piece)
                if let problem = reader.problem { throw problem }
            }
        } catch let problem as ProblemDetails {
            reader.close()
            try? FileManager.default.removeItem(at: folder)
            throw problem
        } catch {
            reader.close()
            try? FileManager.default.removeItem(at: folder)
            throw ProblemDetails.malformedBody
        }
        reader.close()
        guard reader.finished else {
            try? FileManager.default.removeItem(at: folder)
            throw ProblemDetails.malformedBody
        }
        return WebShareForm(fields: reader.fields, files: reader.files, folder: folder)
    }
}

/// What ``WebShareForm/read(_:boundary:limits:in:)`` keeps as the parser calls it back.
private final class PartReader {
    let limits: WebShareForm.Limits
    let folder: URL
    var fields: [String: String] = [:]
    var files: [WebShareForm.File] = []
    var problem: ProblemDetails?
    /// Whether the last part ended.
    var finished = false

    private var headers: [(String, String)] = []
    private var text: [UInt8] = []
    private var textBytes = 0
    private var output: FileHandle?
    private var outputURL: URL?
    private var hasher = SHA256()
    private var size: Int64 = 0
    private var fileName: String?
    private var partStarted = false

    init(limits: WebShareForm.Limits, folder: URL) {
        self.limits = limits
        self.folder = folder
    }

    func header(_ name: String, _ value: String) {
        finished = false
        textBytes += name.utf8.count + value.utf8.count
        if textBytes > limits.maxTextBytes { problem = problem ?? .bodyTooLarge(limit: limits.maxTextBytes) }
        headers.append((name.lowercased(), value))
    }

    func body(_ buffer: inout ByteBuffer) {
        guard problem == nil else { return }
        if !partStarted { start() }
        let bytes = buffer.readableBytesView
        if let output {
            size += Int64(bytes.count)
            guard size <= limits.maxFileBytes else {
                // Read no further: the file's whole size is not known, only that it is too large.
                var tooLarge = ProblemDetails.fileTooLarge(size: size, limit: limits.maxFileBytes)
                let most = ByteCountFormatter.string(fromByteCount: limits.maxFileBytes, countStyle: .binary)
                tooLarge.detail = "\(fileName ?? "A file") is larger than this server takes: at most \(most) a file."
                problem = tooLarge
                return
            }
            hasher.update(data: bytes)
            output.write(Data(bytes))
        } else {
            textBytes += bytes.count
            guard textBytes <= limits.maxTextBytes else {
                problem = .bodyTooLarge(limit: limits.maxTextBytes)
                return
            }
            text += bytes
        }
    }

    func partComplete() {
        guard problem == nil else { return }
        if !partStarted { start() }
        let disposition = headers.first { $0.0 == "content-disposition" }?.1 ?? ""
        let name = Self.parameter("name", in: disposition) ?? ""
        if let output, let outputURL {
            // Not synced: the upload made of it is what must survive a crash, and is made durable.
            try? output.close()
            // A file field left empty sends a part with no name and no bytes: no file.
            if size > 0 || !(fileName ?? "").isEmpty {
                files.append(
                    WebShareForm.File(name: fileName, file: outputURL, size: size, sha256: SHA256.hex(hasher.finalize()))
                )
            }
        } else {
            fields[name] = String(decoding: text, as: UTF8.self)
        }
        output = nil
        outputURL = nil
        headers = []
        text = []
        partStarted = false
        finished = true
    }

    /// Starts a part once its headers are in: a file part opens a temporary file.
    private func start() {
        partStarted = true
        let disposition = headers.first { $0.0 == "content-disposition" }?.1 ?? ""
        guard let written = Self.parameter("filename", in: disposition) else { return }
        // A browser sends the name alone; an old one the whole path, in either kind of slash.
        let base = written.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init)
        fileName = base.flatMap { $0.isEmpty ? nil : $0 }
        guard files.count < limits.maxFiles else {
            problem = .validationFailed(
                [.init(pointer: "/attachments", detail: "A share carries at most \(limits.maxFiles) files; share the rest in another.")]
            )
            return
        }
        let url = folder.appendingPathComponent("\(files.count)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil), let handle = try? FileHandle(forWritingTo: url)
        else {
            problem = .malformedBody
            return
        }
        output = handle
        outputURL = url
        hasher = SHA256()
        size = 0
    }

    func close() {
        try? output?.close()
        output = nil
    }

    /// A parameter of a `Content-Disposition` value (`form-data; name="note"; filename="a.jpg"`).
    static func parameter(_ name: String, in value: String) -> String? {
        for part in value.split(separator: ";") {
            let pair = part.trimmingCharacters(in: .whitespaces)
            guard pair.lowercased().hasPrefix(name + "=") else { continue }
            var written = pair.dropFirst(name.count + 1)
            if written.hasPrefix("\""), written.hasSuffix("\""), written.count >= 2 { written = written.dropFirst().dropLast() }
            return written.replacingOccurrences(of: "\\\"", with: "\"")
        }
        return nil
    }
}

public import Foundation

extension UploadOutcome {
    /// Classifies the server's answer to `POST /v1/shares` (see the server's `openapi.json`).
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - header: Looks up a response header by name, case-insensitively.
    ///   - body: The response body (a `ShareCreated` object, or `application/problem+json`).
    public static func classify(status: Int, header: (String) -> String?, body: Data) -> UploadOutcome {
        let retryAfter = header("Retry-After").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            .map { Duration.seconds(max(0, $0)) }
        switch status {
        case 200, 201:
            let shareID = Self.shareID(in: body)
            let replayed = header("Idempotent-Replayed")?.lowercased() == "true" || status == 200
            return replayed ? .replayed(shareID: shareID) : .uploaded(shareID: shareID)
        case 401, 403:
            return .unauthorized(status: status, message: problemMessage(body) ?? "The server refused the token.")
        case 408, 409, 425, 429:
            return .transient(
                reason: "HTTP \(status): " + (problemMessage(body) ?? "try again later"),
                retryAfter: retryAfter ?? .seconds(1)
            )
        case 400...499:
            return .rejected(
                status: status,
                message: problemMessage(body) ?? "The server refused the share (HTTP \(status))."
            )
        default:
            return .transient(
                reason: "HTTP \(status): " + (problemMessage(body) ?? "server error"),
                retryAfter: retryAfter
            )
        }
    }

    /// The problem's `detail` and each field error's detail, or `nil` when the body is not a problem.
    static func problemMessage(_ body: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return nil }
        var parts: [String] = []
        if let detail = object["detail"] as? String ?? object["title"] as? String { parts.append(detail) }
        for error in object["errors"] as? [[String: Any]] ?? [] {
            if let detail = error["detail"] as? String {
                let pointer = (error["pointer"] as? String).map { "\($0): " } ?? ""
                parts.append(pointer + detail)
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: " ")
    }

    private static func shareID(in body: Data) -> UUID? {
        guard let object = try? JSONSerialization.jsonObject(with: body) as? [String: Any],
            let share = object["share"] as? [String: Any], let id = share["id"] as? String
        else { return nil }
        return UUID(uuidString: id)
    }
}

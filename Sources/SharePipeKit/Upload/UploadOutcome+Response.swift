public import Foundation
import LinkPreviewCore
import SharePipeProtocol

extension UploadOutcome {
    /// Classifies the server's answer to `POST /v1/shares` (see the server's `openapi.json`).
    ///
    /// Only a 201 whose body names the share recorded counts as delivered (`Idempotent-Replayed: true`
    /// marks the stored answer to an earlier attempt). Any other 2xx, and every 3xx, is something
    /// else answering — a Wi-Fi sign-in portal, a proxy, a moved server — and the item stays saved:
    /// taking it for a delivery would lose the share.
    ///
    /// A 4xx counts as the server's word on the share (`rejected`, or `unauthorized` for 401 and 403)
    /// only when it is a problem (`application/problem+json`), as every SharePipe refusal is. A
    /// proxy's 407, a load balancer's 400, a firewall's 403 or the 404 of a server being deployed
    /// say nothing about the share: the item stays saved and is tried again later.
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - header: Looks up a response header by name, case-insensitively.
    ///   - body: The response body (a `ShareCreated` object, or `application/problem+json`).
    public static func classify(status: Int, header: (String) -> String?, body: Data) -> UploadOutcome {
        let retryAfter = header("Retry-After").flatMap { retryAfterDelay($0, now: Date()) }
        switch status {
        case 201:
            guard let shareID = ShareCreated.shareID(in: body) else {
                return .transient(
                    reason:
                        "HTTP 201 without the share the server recorded: the address may not be a SharePipe server.",
                    retryAfter: nil
                )
            }
            let replayed = header("Idempotent-Replayed")?.lowercased() == "true"
            return replayed ? .replayed(shareID: shareID) : .uploaded(shareID: shareID)
        case 200..<300:
            return .transient(
                reason: "HTTP \(status) is not how a SharePipe server answers a share (a sign-in portal or a proxy?).",
                retryAfter: nil
            )
        case 300..<400:
            // The server's words reach a terminal (`inbox list`): one line, no control characters.
            let target = header("Location").map { " to \(plainText($0))" } ?? ""
            return .transient(
                reason: "HTTP \(status): the server redirected\(target), and a share is not sent on to where a "
                    + "redirect points. If the server moved, sign in with its new address.",
                retryAfter: nil
            )
        case 429 where isProblem(header) && ProblemDetails.read(body, status: status)?.type == allowanceUsedUp:
            // About this item alone (it starts a group): the items after it may go now.
            return .postponed(
                reason: "HTTP 429: "
                    + (problemMessage(body, status: status) ?? "the account started as many groups as a day allows"),
                retryAfter: retryAfter ?? .seconds(60)
            )
        case 408, 409, 425, 429:
            return .transient(
                reason: "HTTP \(status): " + (problemMessage(body, status: status) ?? "try again later"),
                retryAfter: retryAfter ?? .seconds(1)
            )
        case 400...499 where !isProblem(header):
            return .transient(
                reason: "HTTP \(status) without a SharePipe problem: something other than the server answered "
                    + "(a proxy, a firewall, a server being deployed?).",
                retryAfter: retryAfter
            )
        case 401, 403:
            return .unauthorized(
                status: status,
                message: problemMessage(body, status: status) ?? "The server refused the token."
            )
        case 400...499:
            return .rejected(
                status: status,
                message: problemMessage(body, status: status) ?? "The server refused the share (HTTP \(status))."
            )
        default:
            return .transient(
                reason: "HTTP \(status): " + (problemMessage(body, status: status) ?? "server error"),
                retryAfter: retryAfter
            )
        }
    }

    /// A `Retry-After` value as a wait (RFC 9110 §10.2.3): delay seconds, or an HTTP date in any of
    /// its three forms (a wait until then; none for a date past). `nil` for anything else.
    package static func retryAfterDelay(_ value: String, now: Date) -> Duration? {
        let text = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Int(text) { return .seconds(max(0, seconds)) }
        guard let date = HTTPDate.parse(text, reference: now) else { return nil }
        return .seconds(max(0, Int(date.timeIntervalSince(now).rounded(.up))))
    }

    private static let allowanceUsedUp = ProblemDetails.TypeURI.allowanceUsedUp

    /// Whether the answer is an RFC 9457 problem (`application/problem+json`, parameters allowed).
    private static func isProblem(_ header: (String) -> String?) -> Bool {
        guard let contentType = header("Content-Type") else { return false }
        let essence = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return essence.trimmingCharacters(in: .whitespaces).lowercased() == "application/problem+json"
    }

    /// The problem's `detail` (else its `title`) and each field error's detail, or `nil` when the body is
    /// not a problem (``ProblemDetails/read(_:status:)``; `status` is the response's).
    ///
    /// The server's words are shown to people (an alert, a terminal) and kept with a refused share, so
    /// they are made plain text first (``plainText(_:)``): a terminal would act on an escape sequence a
    /// hostile or broken server put in them, every time `inbox list` showed the refusal again.
    static func problemMessage(_ body: Data, status: Int) -> String? {
        guard let problem = ProblemDetails.read(body, status: status) else { return nil }
        var parts: [String] = []
        if let detail = problem.detail ?? (problem.title.isEmpty ? nil : problem.title) { parts.append(detail) }
        for error in problem.errors ?? [] {
            parts.append("\(error.pointer): \(error.detail)")
        }
        return parts.isEmpty ? nil : plainText(parts.joined(separator: " "))
    }

    /// The most characters of a server's message kept.
    static let maxMessageLength = 2_000

    /// A server's words as one line of plain text, at most ``maxMessageLength`` characters.
    static func plainText(_ text: String) -> String {
        PlainText.line(text, maxLength: maxMessageLength)
    }
}

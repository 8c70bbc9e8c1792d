import Foundation
import SharePipeProtocol

/// Signing in with a handle and password, and signing up: what the API's device sign-in and the web
/// page's forms share, with the throttle that keeps passwords from being guessed.
struct AccountSignIn: Sendable {
    let storage: any Storage
    /// Sign-in attempts per handle and per address, and sign-ups per address.
    let limiter: RateLimiter
    /// Whether anyone may make an account (``ServerConfiguration/allowSignUp``).
    let allowSignUp: Bool

    /// The account whose handle and password these are. Attempts are limited per handle and per
    /// address (``ServerConfiguration/signInAttemptsPerFiveMinutes``), so passwords cannot be
    /// guessed quickly; past the limit the answer is 429 whatever the password.
    func signIn(handle text: String, password: String, from address: String?) async throws -> User {
        // The address first: a client already held back opens no bucket for the handle it names.
        // Text that is no handle can never sign in, so it gets no bucket of its own (any text made
        // one, up to the form's 16 KiB, and a client sending new text each time filled memory).
        let handle = User.handle(from: text)
        let keys =
            (address.map { ["address \(ClientAddress.limitKey(for: $0))"] } ?? [])
            + (handle.map { ["handle \($0)"] } ?? [])
        for key in keys {
            if let wait = limiter.take(key) { throw ProblemDetails.rateLimited(retryAfter: wait) }
        }
        var hash: String?
        if let handle { hash = try await storage.passwordHash(handle: handle) }
        guard try await Passwords.verify(password, against: hash), let handle,
            let user = try await storage.user(handle: handle)
        else { throw ProblemDetails.invalidCredentials }
        return user
    }

    /// A new account from the sign-up form, when sign-up is open.
    func signUp(handle text: String, displayName: String, password: String, from address: String?) async throws -> User
    {
        guard allowSignUp else { throw ProblemDetails.signUpClosed }
        var errors: [ProblemDetails.FieldError] = []
        let handle = User.handle(from: text.trimmingCharacters(in: .whitespaces))
        if handle == nil { errors.append(.init(pointer: "/handle", detail: User.handleRule)) }
        let name = displayName.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.count > User.maxDisplayNameLength {
            errors.append(
                .init(pointer: "/displayName", detail: "Use at most \(User.maxDisplayNameLength) characters.")
            )
        }
        if let problem = Passwords.problem(with: password) {
            errors.append(.init(pointer: "/password", detail: problem))
        }
        guard let handle, errors.isEmpty else { throw ProblemDetails.validationFailed(errors) }
        // A taken handle is said before the hash is paid for (the insert still refuses a race).
        if try await storage.user(handle: handle) != nil { throw ProblemDetails.handleTaken(handle) }
        // Each sign-up costs a bcrypt hash and makes an account: held to the sign-in limit per
        // address, so one client can neither keep the password pool busy nor make accounts without end.
        if let address, let wait = limiter.take("sign-up \(ClientAddress.limitKey(for: address))") {
            throw ProblemDetails.rateLimited(retryAfter: wait)
        }
        let hash = try await Passwords.hash(password)
        do {
            return try await storage.createUser(
                handle: handle,
                displayName: name.isEmpty ? handle : name,
                passwordHash: hash
            )
        } catch let error as StorageError where error.code == .conflict {
            throw ProblemDetails.handleTaken(handle)
        }
    }
}

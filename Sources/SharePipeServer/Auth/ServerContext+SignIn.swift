import Foundation
import SharePipeProtocol

extension ServerContext {
    /// The account whose handle and password these are. Attempts are limited per handle and per
    /// address (``ServerConfiguration/signInAttemptsPerFiveMinutes``), so passwords cannot be
    /// guessed quickly; past the limit the answer is 429 whatever the password.
    func signIn(handle text: String, password: String, from address: String?) async throws -> User {
        let handle = User.handle(from: text) ?? text.lowercased()
        for key in ["handle \(handle)"] + (address.map { ["address \(ClientAddress.limitKey(for: $0))"] } ?? []) {
            if let wait = signInLimiter.take(key) { throw ProblemDetails.rateLimited(retryAfter: wait) }
        }
        let hash = User.handle(from: text) == nil ? nil : try await storage.passwordHash(handle: handle)
        guard try await Passwords.verify(password, against: hash),
            let user = try await storage.user(handle: handle)
        else { throw ProblemDetails.invalidCredentials }
        return user
    }

    /// A new account from the sign-up form, when sign-up is open.
    func signUp(handle text: String, displayName: String, password: String) async throws -> User {
        guard configuration.allowSignUp else { throw ProblemDetails.signUpClosed }
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

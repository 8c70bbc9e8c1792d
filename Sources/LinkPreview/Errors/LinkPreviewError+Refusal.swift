import Foundation

extension LinkPreviewError {
    /// The address policy's refusal as a preview error: a refused scheme, user info or port is
    /// ``Code/notAllowedURL``, a refused name or address ``Code/blockedAddress``, an empty DNS answer
    /// ``Code/dns`` and a malformed host ``Code/invalidURL``.
    init(refusal: AddressRefusal, url: URL) {
        let code: Code
        switch refusal.reason {
        case .unsupportedScheme, .userInfo, .portNotAllowed: code = .notAllowedURL
        case .blockedHostName, .blockedAddress, .mixedAnswer: code = .blockedAddress
        case .noAddresses: code = .dns
        case .invalidHost: code = .invalidURL
        }
        self.init(code, refusal.description, url: url)
    }
}

#if canImport(Security)
public import Foundation
import Security

/// The credential in the keychain, in an access group the app and its share extension share, readable
/// after the first unlock (a share extension may run while the phone is locked after that).
///
/// Compiled only where the Security framework exists; not built on Linux, where
/// ``FileCredentialStore`` is used. The keychain survives the app's deletion, which is why the
/// credential is bound to the ``InstallMarker`` in the (deleted-with-the-app) container.
public struct KeychainCredentialStore: CredentialStore {
    /// The keychain access group shared by the app and the extension, e.g. `TEAMID.dev.sharepipe`.
    public let accessGroup: String?
    /// The item's service name. Default `dev.sharepipe.credential`.
    public let service: String

    /// A store in the keychain.
    public init(accessGroup: String?, service: String = "dev.sharepipe.credential") {
        self.accessGroup = accessGroup
        self.service = service
    }

    private var query: [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: "share",
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    public func load() throws -> ShareCredential? {
        var request = query
        request[kSecReturnData as String] = true
        request[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: AnyObject?
        let status = SecItemCopyMatching(request as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else {
            throw CredentialStoreError("The keychain refused to read the credential (OSStatus \(status)).")
        }
        return try? JSONDecoder().decode(ShareCredential.self, from: data)
    }

    /// Replaces the stored credential in place (`SecItemUpdate`), or adds it when there is none, so
    /// a save the keychain refuses leaves the previous credential as it was rather than none at all.
    public func save(_ credential: ShareCredential) throws {
        let data = try JSONEncoder().encode(credential)
        let changes: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        var status = SecItemUpdate(query as CFDictionary, changes as CFDictionary)
        if status == errSecItemNotFound {
            var item = query
            item.merge(changes) { _, new in new }
            status = SecItemAdd(item as CFDictionary, nil)
            // The app and the extension both found none and both added: the other's is there now.
            if status == errSecDuplicateItem {
                status = SecItemUpdate(query as CFDictionary, changes as CFDictionary)
            }
        }
        guard status == errSecSuccess else {
            throw CredentialStoreError("The keychain refused to store the credential (OSStatus \(status)).")
        }
    }

    public func delete() throws {
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw CredentialStoreError("The keychain refused to delete the credential (OSStatus \(status)).")
        }
    }
}
#endif

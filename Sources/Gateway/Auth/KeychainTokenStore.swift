#if canImport(Security)
import Foundation
import Security

/// A `TokenStore` in the keychain (Apple platforms): one generic-password item holding the
/// credential as JSON, readable only while the device is unlocked and never synced or
/// migrated to another device.
///
/// ```swift
/// config.tokens = KeychainTokenStore(service: "com.example.app.tokens")
/// ```
/// Errors are `GatewayError`s of kind `.tokenStore` carrying the keychain's status code.
public final class KeychainTokenStore: TokenStore, CustomStringConvertible {
    /// The item's service (`kSecAttrService`).
    public let service: String
    /// The item's account (`kSecAttrAccount`).
    public let account: String
    /// The keychain access group shared with other apps of the team, if any.
    public let accessGroup: String?

    /// Creates a store for one keychain item.
    ///
    /// - Parameters:
    ///   - service: the item's service, usually the app's bundle identifier and a suffix.
    ///   - account: the item's account name.
    ///   - accessGroup: an access group to share the item with other apps, or `nil`.
    public init(service: String, account: String = "credential", accessGroup: String? = nil) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
    }

    /// `KeychainTokenStore(service/account)`.
    public var description: String { "KeychainTokenStore(\(service)/\(account))" }

    /// Reads the item.
    ///
    /// - Returns: the credential, or `nil` when there is no item.
    /// - Throws: `GatewayError` of kind `.tokenStore` when the keychain refuses or the item is
    ///   not a credential.
    public func load() throws -> Credential? {
        var query = baseQuery
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = result as? Data else { throw failure("read", status) }
        do {
            return try JSONDecoder().decode(Credential.self, from: data)
        } catch {
            throw GatewayError(.tokenStore, "the keychain item \(description) is not a credential",
                               fix: "sign in again to replace it", underlying: error)
        }
    }

    /// Replaces the item's data, or adds the item.
    ///
    /// - Throws: `GatewayError` of kind `.tokenStore` when the keychain refuses.
    public func save(_ credential: Credential) throws {
        let data: Data
        do {
            data = try JSONEncoder().encode(credential)
        } catch {
            throw GatewayError(.tokenStore, "the credential could not be encoded", underlying: error)
        }
        let attributes: [String: Any] = [
            kSecValueData as String: data,
            kSecAttrAccessible as String: kSecAttrAccessibleWhenUnlockedThisDeviceOnly,
        ]
        var status = SecItemUpdate(baseQuery as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            var item = baseQuery
            item.merge(attributes) { _, new in new }
            status = SecItemAdd(item as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw failure("write", status) }
    }

    /// Deletes the item; no item is not an error.
    ///
    /// - Throws: `GatewayError` of kind `.tokenStore` when the keychain refuses.
    public func clear() throws {
        let status = SecItemDelete(baseQuery as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw failure("delete", status) }
    }

    private var baseQuery: [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword,
            kSecAttrService as String: service,
            kSecAttrAccount as String: account,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    private func failure(_ action: String, _ status: OSStatus) -> GatewayError {
        let reason = (SecCopyErrorMessageString(status, nil) as String?) ?? "status \(status)"
        return GatewayError(.tokenStore, "the keychain could not \(action) \(description): \(reason) (\(status))",
                            fix: status == errSecInteractionNotAllowed ? "unlock the device and try again" : nil)
    }
}
#endif

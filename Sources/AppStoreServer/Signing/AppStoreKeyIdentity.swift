import Crypto
import Foundation

/// The In-App Purchase key and App Store Connect identifiers Verdict signs with for one app, plus
/// the clock that dates what it signs.
///
/// The API token minter (``AppStoreAPIToken``) and the JWS signers (``AppStoreJWSCreator``) each
/// hold one; build it through their `init(privateKey:keyId:issuerId:bundleId:clock:)`, and share
/// it between signers with `init(identity:)`. The key itself is never exposed.
public struct AppStoreKeyIdentity: Sendable {
    let privateKey: P256.Signing.PrivateKey
    /// The App Store Connect key identifier, sent as the header `kid`.
    public let keyId: String
    /// The App Store Connect issuer id, sent as `iss`.
    public let issuerId: String
    /// The app's bundle identifier, sent as `bid`.
    public let bundleId: String
    /// Supplies "now" for `iat` (injectable for tests).
    let clock: @Sendable () -> Date

    /// The public half of the key, for checking what was signed.
    var publicKey: P256.Signing.PublicKey { privateKey.publicKey }

    /// "Now" in whole seconds since 1970, the integer `iat` Verdict writes.
    func issuedAt() -> Int64 { ES256JWT.seconds(clock()) }

    /// Signs `claims` as an ES256 JWT with this identity's key and key id.
    func sign(_ claims: some Encodable) throws(SignatureError) -> String {
        try ES256JWT.sign(claims: claims, keyId: keyId, key: privateKey)
    }
}

/// A signer bound to one ``AppStoreKeyIdentity``: the API token minter and the JWS creators.
///
/// Conforming types get the common `init(privateKey:keyId:issuerId:bundleId:clock:)` and the
/// `keyId` / `issuerId` / `bundleId` accessors from this protocol.
public protocol AppStoreKeyIdentitySigner: Sendable {
    /// The key and identifiers this signer signs with.
    var identity: AppStoreKeyIdentity { get }
    /// Creates a signer for `identity`.
    init(identity: AppStoreKeyIdentity)
}

extension AppStoreKeyIdentitySigner {
    /// Creates a signer for one key and app; `clock` supplies "now" (injectable for tests).
    public init(
        privateKey: P256.Signing.PrivateKey,
        keyId: String,
        issuerId: String,
        bundleId: String,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.init(identity: AppStoreKeyIdentity(
            privateKey: privateKey, keyId: keyId, issuerId: issuerId, bundleId: bundleId, clock: clock
        ))
    }

    /// The App Store Connect key identifier, sent as the header `kid`.
    public var keyId: String { identity.keyId }
    /// The App Store Connect issuer id, sent as `iss`.
    public var issuerId: String { identity.issuerId }
    /// The app's bundle identifier, sent as `bid`.
    public var bundleId: String { identity.bundleId }
}

import Foundation

/// The decoded payload of a signed app transaction (the app download; `signedAppTransactionInfo`).
public struct AppTransaction: Codable, Hashable, Sendable {
    /// The environment of the app transaction (compared with the verifier's environment).
    public var receiptType: AppStoreEnvironment?
    public var appAppleId: Int64?
    public var bundleId: String?
    /// The app version (`CFBundleVersion` on iOS) the app transaction is for.
    public var applicationVersion: String?
    /// The App Store's identifier of the app version.
    public var versionExternalIdentifier: Int64?
    /// When Apple signed the app transaction (its signed date).
    public var receiptCreationDate: Date?
    /// When the customer first downloaded the app.
    public var originalPurchaseDate: Date?
    /// The app version the customer first downloaded.
    public var originalApplicationVersion: String?
    /// Base64 device-verification hash, checked on the device.
    public var deviceVerification: String?
    /// The nonce the device-verification hash was computed with.
    public var deviceVerificationNonce: UUID?
    /// When the customer pre-ordered the app, if they did.
    public var preorderDate: Date?
    public var appTransactionId: String?
    public var originalPlatform: PurchasePlatform?

    public init(
        receiptType: AppStoreEnvironment? = nil,
        appAppleId: Int64? = nil,
        bundleId: String? = nil,
        applicationVersion: String? = nil,
        versionExternalIdentifier: Int64? = nil,
        receiptCreationDate: Date? = nil,
        originalPurchaseDate: Date? = nil,
        originalApplicationVersion: String? = nil,
        deviceVerification: String? = nil,
        deviceVerificationNonce: UUID? = nil,
        preorderDate: Date? = nil,
        appTransactionId: String? = nil,
        originalPlatform: PurchasePlatform? = nil
    ) {
        self.receiptType = receiptType
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.applicationVersion = applicationVersion
        self.versionExternalIdentifier = versionExternalIdentifier
        self.receiptCreationDate = receiptCreationDate
        self.originalPurchaseDate = originalPurchaseDate
        self.originalApplicationVersion = originalApplicationVersion
        self.deviceVerification = deviceVerification
        self.deviceVerificationNonce = deviceVerificationNonce
        self.preorderDate = preorderDate
        self.appTransactionId = appTransactionId
        self.originalPlatform = originalPlatform
    }
}

import Foundation

/// A verified App Store Server Notification V2 with its nested signed payloads verified and decoded.
public struct VerifiedNotification: Hashable, Sendable {
    /// The notification itself.
    public var payload: ResponseBodyV2DecodedPayload
    /// `data.signedTransactionInfo`, verified and decoded, when present.
    public var transaction: JWSTransactionDecodedPayload?
    /// `data.signedRenewalInfo`, verified and decoded, when present.
    public var renewalInfo: JWSRenewalInfoDecodedPayload?
    /// `appData.signedAppTransactionInfo`, verified and decoded, when present.
    public var appTransaction: AppTransaction?
    /// The verified JSON bytes of `transaction`, as signed (nil when built from parts).
    public var transactionJSON: Data?
    /// The verified JSON bytes of `renewalInfo`, as signed (nil when built from parts).
    public var renewalInfoJSON: Data?
    /// The verified JSON bytes of `appTransaction`, as signed (nil when built from parts).
    public var appTransactionJSON: Data?

    /// A verified notification from its parts.
    public init(
        payload: ResponseBodyV2DecodedPayload,
        transaction: JWSTransactionDecodedPayload? = nil,
        renewalInfo: JWSRenewalInfoDecodedPayload? = nil,
        appTransaction: AppTransaction? = nil
    ) {
        self.payload = payload
        self.transaction = transaction
        self.renewalInfo = renewalInfo
        self.appTransaction = appTransaction
    }
}

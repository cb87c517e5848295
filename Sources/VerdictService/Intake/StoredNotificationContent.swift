import AppStoreServer
import Foundation

/// The verified content of a notification as Verdict stores it (`decodedJSON`): the payload and its
/// nested, verified transaction, renewal info and app transaction. Processing reads this instead
/// of verifying the signed payload again.
///
/// The payload keeps every field but the nested JWS strings (`signedTransactionInfo`,
/// `signedRenewalInfo`, `signedAppTransactionInfo`) whose decoded, verified forms sit beside it:
/// they are in the stored signed payload already, and copying them would more than double what
/// each notification writes.
public struct StoredNotificationContent: Codable, Sendable, Equatable {
    public var payload: ResponseBodyV2DecodedPayload
    public var transaction: JWSTransactionDecodedPayload?
    public var renewalInfo: JWSRenewalInfoDecodedPayload?
    public var appTransaction: AppTransaction?

    public init(_ verified: VerifiedNotification) {
        var payload = verified.payload
        if verified.transaction != nil { payload.data?.signedTransactionInfo = nil }
        if verified.renewalInfo != nil { payload.data?.signedRenewalInfo = nil }
        if verified.appTransaction != nil { payload.appData?.signedAppTransactionInfo = nil }
        self.payload = payload
        self.transaction = verified.transaction
        self.renewalInfo = verified.renewalInfo
        self.appTransaction = verified.appTransaction
    }

    /// The subscription / purchase chain the notification is about, if any.
    public var originalTransactionId: String? {
        transaction?.originalTransactionId ?? renewalInfo?.originalTransactionId
    }

    public func encoded() throws -> String {
        String(decoding: try AppStoreJSON.encoder().encode(self), as: UTF8.self)
    }

    public static func decode(_ json: String) throws -> Self {
        try AppStoreJSON.decoder().decode(Self.self, from: Data(json.utf8))
    }
}

import AppStoreServer
import Foundation

/// The verified content of a notification as Verdict stores it (`decodedJSON`): the payload and its
/// nested, verified transaction, renewal info and app transaction. Processing reads this instead
/// of verifying the signed payload again.
public struct StoredNotificationContent: Codable, Sendable, Equatable {
    public var payload: ResponseBodyV2DecodedPayload
    public var transaction: JWSTransactionDecodedPayload?
    public var renewalInfo: JWSRenewalInfoDecodedPayload?
    public var appTransaction: AppTransaction?

    public init(_ verified: VerifiedNotification) {
        self.payload = verified.payload
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

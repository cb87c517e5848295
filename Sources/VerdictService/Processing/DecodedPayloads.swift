import AppStoreServer
import Foundation
import VerdictStorage

/// The transaction and renewal info of a processed notification, each with the exact JSON text it
/// was decoded from (the stored content's, which is Apple's verified JSON). Storage keeps that
/// text verbatim, so a stored record with the same text holds this same payload: deciders reading
/// the customer's records take the decoded value then instead of decoding the text again.
public struct DecodedPayloads: Sendable {
    /// A decoded payload and the JSON text it was decoded from (nil when that is not at hand).
    public struct Decoded<Payload: Sendable>: Sendable {
        public var payload: Payload
        public var json: String?

        public init(payload: Payload, json: String?) {
            self.payload = payload
            self.json = json
        }
    }

    public var transaction: Decoded<JWSTransactionDecodedPayload>?
    public var renewalInfo: Decoded<JWSRenewalInfoDecodedPayload>?

    public init(transaction: Decoded<JWSTransactionDecodedPayload>? = nil, renewalInfo: Decoded<JWSRenewalInfoDecodedPayload>? = nil) {
        self.transaction = transaction
        self.renewalInfo = renewalInfo
    }

    /// The transaction `record` stores: the one at hand when the record holds its text, else decoded.
    func transaction(_ record: TransactionRecord, decoder: JSONDecoder) throws -> JWSTransactionDecodedPayload {
        if let transaction, let json = transaction.json, record.transactionId == transaction.payload.transactionId,
           record.decodedJSON == json {
            return transaction.payload
        }
        return try record.payload(decoder)
    }

    /// The renewal info `record` stores: the one at hand when the record holds its text, else decoded.
    func renewalInfo(_ record: RenewalInfoRecord, decoder: JSONDecoder) throws -> JWSRenewalInfoDecodedPayload {
        if let renewalInfo, let json = renewalInfo.json, record.decodedJSON == json { return renewalInfo.payload }
        return try record.payload(decoder)
    }
}

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
///
/// **A transaction from intake to decision** (renewal info alike). Decoded twice, encoded never:
/// 1. ``NotificationIntake`` verifies the signed payload: the nested JWS is decoded into its model
///    (decode 1, needed: verification checks its bundle id and environment). The content is stored
///    with the nested payloads as the JSON Apple signed (``encoded(nestedJSONOf:)``): no encoding.
/// 2. The `process-notification` job (``NotificationProcessor``) reads the stored content and
///    decodes it once (``read(_:)``, decode 2: a job reading from the database necessarily decodes
///    what it reads, once per run). `TransactionRecord` and `RenewalInfoRecord` store the nested
///    payloads' JSON text exactly as it stands in the content — Apple's verified bytes — without
///    encoding the models again.
/// 3. The deciders build facts from the customer's stored records. The notification's own
///    transaction and renewal info are taken as the job decoded them (``DecodedPayloads``: the
///    record holds the same text), the refund decider's purchase likewise; every other stored
///    transaction of the customer is decoded once per decision (it comes from the database).
///
/// Before: three decodes (verification, the job, the decider's read of the record) and one
/// encoding (the record) per transaction. `sync-history` stores verified transactions the same
/// way: one decode (verification), no encoding.
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

    /// The stored text of this content, made from `verified`. The nested payloads go in as the
    /// JSON Apple signed (already verified and decoded once, so known to be a JSON object) instead
    /// of being encoded again from their models: the same document for ``decode(_:)`` — plus any
    /// field Apple added that the models do not know yet — at a fraction of the cost.
    public func encoded(nestedJSONOf verified: VerifiedNotification) throws -> String {
        let nested: [(key: CodingKeys, present: Bool, json: Data?)] = [
            (.transaction, transaction != nil, verified.transactionJSON),
            (.renewalInfo, renewalInfo != nil, verified.renewalInfoJSON),
            (.appTransaction, appTransaction != nil, verified.appTransactionJSON),
        ]
        var document = #"{""# + CodingKeys.payload.stringValue + #"":"#
            + String(decoding: try AppStoreJSON.encoder().encode(payload), as: UTF8.self)
        for part in nested where part.present {
            guard let text = part.json.flatMap(Self.objectText) else { return try encoded() }
            document += #",""# + part.key.stringValue + #"":"# + text
        }
        return document + "}"
    }

    /// `json` as text when it is valid UTF-8 framed as one JSON object: `{` first and `}` last
    /// (whitespace aside). The decoder that read it as the payload model checked what is between.
    private static func objectText(_ json: Data) -> String? {
        let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
        guard let first = json.first(where: { !whitespace.contains($0) }),
              let last = json.last(where: { !whitespace.contains($0) }),
              first == UInt8(ascii: "{"), last == UInt8(ascii: "}")
        else { return nil }
        return String(validating: json, as: UTF8.self)
    }

    public static func decode(_ json: String) throws -> Self {
        try AppStoreJSON.decoder().decode(Self.self, from: Data(json.utf8))
    }

    /// Decodes stored content `json` once, and keeps beside the decoded transaction and renewal info
    /// their JSON text as it stands in `json` (Apple's verified bytes): what processing stores and
    /// what deciders recognise, instead of encoding or decoding the payloads again.
    public static func read(_ json: String) throws -> (content: Self, decoded: DecodedPayloads) {
        let content = try decode(json)
        guard content.transaction != nil || content.renewalInfo != nil else { return (content, DecodedPayloads()) }
        let transactionKey = CodingKeys.transaction.stringValue
        let renewalInfoKey = CodingKeys.renewalInfo.stringValue
        let texts = JSONMemberText.values([transactionKey, renewalInfoKey], in: json)
        let decoded = DecodedPayloads(
            transaction: content.transaction.map { .init(payload: $0, json: texts[transactionKey].map(String.init)) },
            renewalInfo: content.renewalInfo.map { .init(payload: $0, json: texts[renewalInfoKey].map(String.init)) })
        return (content, decoded)
    }
}

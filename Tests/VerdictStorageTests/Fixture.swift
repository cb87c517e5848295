@testable import VerdictStorage

/// Builders for records with sensible defaults.
enum Fixture {
    static func notification(_ uuid: String, signedDate: Int64 = 1_000, otid: String? = "otid-1") -> NewNotification {
        NewNotification(
            notificationUUID: uuid, notificationType: "DID_RENEW", subtype: nil, environment: "Sandbox",
            bundleId: "com.example.app", originalTransactionId: otid, transactionId: "tx-1", signedDate: signedDate,
            receivedAt: signedDate + 5, source: .delivery, signedPayload: "eyJhbGciOiJFUzI1NiJ9.payload.sig",
            decodedJSON: #"{"notificationType":"DID_RENEW"}"#)
    }

    static func job(kind: String = "process-notification", runAt: Int64 = 0, deadline: Int64? = nil,
                    dedupeKey: String? = nil, payload: String = "{}") -> NewJob {
        NewJob(kind: kind, payload: payload, dedupeKey: dedupeKey, runAt: runAt, deadline: deadline, createdAt: runAt)
    }

    static func transaction(_ id: String, otid: String = "otid-1", signedDate: Int64, purchaseDate: Int64? = nil,
                            product: String = "monthly") -> TransactionRecord {
        TransactionRecord(transactionId: id, originalTransactionId: otid, productId: product, appAccountToken: nil,
                          environment: "Sandbox", purchaseDate: purchaseDate, revocationDate: nil,
                          signedDate: signedDate, decodedJSON: #"{"signedDate":\#(signedDate)}"#)
    }
}

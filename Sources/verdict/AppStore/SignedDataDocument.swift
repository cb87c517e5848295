import AppStoreServer
import Foundation

/// Verifies a JWS of any kind Apple signs and renders it as one JSON document.
///
/// The kind is recognised from the payload's keys (`notificationType`, `receiptType`,
/// `transactionId`, otherwise renewal info). Nested JWS strings of a notification are replaced by
/// their verified, decoded payloads.
enum SignedDataDocument {
    /// Verifies `jws` with `verifier` and returns pretty-printed JSON bytes.
    static func decode(_ jws: String, with verifier: SignedDataVerifier) async throws -> Data {
        let object: Any
        switch kind(of: jws) {
        case .notification:
            let verified = try await verifier.verifyNotification(jws)
            object = try notificationObject(verified)
        case .appTransaction:
            object = try jsonObject(try await verifier.verifyAppTransaction(jws))
        case .transaction:
            object = try jsonObject(try await verifier.verifyTransaction(jws))
        case .renewalInfo:
            object = try jsonObject(try await verifier.verifyRenewalInfo(jws))
        }
        return try JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
    }

    private enum Kind { case notification, appTransaction, transaction, renewalInfo }

    private static func kind(of jws: String) -> Kind {
        guard let parsed = CompactJWS(jws),
              let keys = (try? JSONSerialization.jsonObject(with: parsed.payload)) as? [String: Any]
        else { return .notification }  // let the verifier report what is wrong
        if keys["notificationType"] != nil { return .notification }
        if keys["receiptType"] != nil { return .appTransaction }
        if keys["transactionId"] != nil { return .transaction }
        if keys["autoRenewProductId"] != nil || keys["autoRenewStatus"] != nil { return .renewalInfo }
        return .notification
    }

    private static func notificationObject(_ verified: VerifiedNotification) throws -> Any {
        guard var root = try jsonObject(verified.payload) as? [String: Any] else { return [:] }
        if var data = root["data"] as? [String: Any] {
            if let transaction = verified.transaction { data["signedTransactionInfo"] = try jsonObject(transaction) }
            if let renewal = verified.renewalInfo { data["signedRenewalInfo"] = try jsonObject(renewal) }
            root["data"] = data
        }
        if var appData = root["appData"] as? [String: Any], let appTransaction = verified.appTransaction {
            appData["signedAppTransactionInfo"] = try jsonObject(appTransaction)
            root["appData"] = appData
        }
        return root
    }

    private static func jsonObject(_ value: some Encodable) throws -> Any {
        try JSONSerialization.jsonObject(with: AppStoreJSON.encoder().encode(value))
    }
}

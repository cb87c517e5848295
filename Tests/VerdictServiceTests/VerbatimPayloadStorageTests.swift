import AppStoreServer
import Foundation
import Testing

@testable import VerdictService

/// A transaction is decoded once at verification and once when its job reads the stored content;
/// it is never encoded again: the transaction and renewal-info records hold Apple's verified JSON
/// bytes exactly (see ``StoredNotificationContent``) — key order, spacing and fields the models do
/// not know included, none of which an encoding of the models would keep.
@Suite struct VerbatimPayloadStorageTests {
    @Test func recordsStoreApplesVerifiedJSONBytes() async throws {
        // No App Store key: no history sync, so the records come from the notification alone.
        try await ServiceHarness.with(.sqlite, credentials: false) { harness in
            let now = Date().appStoreMilliseconds
            let transactionJSON = #"""
                { "transactionId" : "7001", "originalTransactionId": "7001", "bundleId": "\#(ServiceHarness.bundleId)",
                  "productId": "com.example.monthly", "environment": "Sandbox", "signedDate": \#(now),
                  "purchaseDate": \#(now - 1_000), "price": 9990, "currency": "EUR", "futureField": {"nested": [1, 2]} }
                """#
            let renewalInfoJSON = #"""
                {"signedDate":\#(now),"originalTransactionId":"7001","productId":"com.example.monthly","environment":"Sandbox","autoRenewStatus":1,"futureField":true}
                """#
            let signer = harness.store.signer
            let transaction = try signer.sign(payloadJSON: Data(transactionJSON.utf8))
            let renewalInfo = try signer.sign(payloadJSON: Data(renewalInfoJSON.utf8))
            let uuid = UUID().uuidString.lowercased()
            let notification = try signer.sign(payloadJSON: Data(#"""
                {"notificationType":"DID_RENEW","notificationUUID":"\#(uuid)","version":"2.0","signedDate":\#(now),\#
                "data":{"environment":"Sandbox","appAppleId":1234567890,"bundleId":"\#(ServiceHarness.bundleId)",\#
                "signedTransactionInfo":"\#(transaction)","signedRenewalInfo":"\#(renewalInfo)"}}
                """#.utf8))

            // The stored content reads back with those bytes beside the decoded payloads.
            let verified = try await harness.service.apps.first.verifier.verifyNotification(notification)
            let (content, decoded) = try StoredNotificationContent.read(
                try StoredNotificationContent(verified).encoded(nestedJSONOf: verified))
            #expect(content == StoredNotificationContent(verified))
            #expect(decoded.transaction?.json == transactionJSON && decoded.renewalInfo?.json == renewalInfoJSON)
            #expect(decoded.transaction?.payload == verified.transaction)

            #expect(try await harness.deliver(notification).status == 200)
            #expect(try await harness.waitUntilProcessed(uuid)["state"]?.stringValue == "processed")
            let repository = harness.service.apps.first.repository
            let stored = try #require(try await repository.transaction(id: "7001"))
            #expect(stored.decodedJSON == transactionJSON)
            let renewal = try #require(try await repository.renewalInfo(originalTransactionId: "7001"))
            #expect(renewal.decodedJSON == renewalInfoJSON)

            // A decider reading those records takes the payloads the job decoded.
            let decoder = AppStoreJSON.decoder()
            #expect(try decoded.transaction(stored, decoder: decoder) == verified.transaction)
            #expect(try decoded.renewalInfo(renewal, decoder: decoder) == verified.renewalInfo)
        }
    }

    @Test func memberTextIsTheValueAsWritten() {
        let text = #" { "payload" : {"a":"}{\"","b":[1,{"c":"]"}]}, "n": -1.5e3 ,"transaction":{"x":"y\\"},"t":true,"transaction":{}} "#
        let found = JSONMemberText.values(["payload", "n", "transaction", "t", "missing"], in: text)
        #expect(found["payload"] == #"{"a":"}{\"","b":[1,{"c":"]"}]}"#)
        #expect(found["n"] == "-1.5e3")
        #expect(found["transaction"] == #"{"x":"y\\"}"#) // the first of a repeated name
        #expect(found["t"] == "true")
        #expect(found["missing"] == nil)
        #expect(JSONMemberText.values(["a"], in: "[1]").isEmpty)
        #expect(JSONMemberText.values(["a"], in: #"{"a":"cut"#).isEmpty)
    }
}

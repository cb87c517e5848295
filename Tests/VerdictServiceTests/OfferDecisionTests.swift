import AppStoreServer
import AppStoreSimulator
import Crypto
import Foundation
import NIOHTTP1
import Testing
import VerdictService
import VerdictTestSupport

/// The offer flow end to end, over real HTTP: the simulator signs and delivers a subscriber's
/// notifications, Verdict decides on DID_CHANGE_RENEWAL_STATUS / AUTO_RENEW_DISABLED with the
/// shipped rules, records the decision (rule, line, explanation, facts), and serves the pending
/// offer with signatures that verify independently.
@Suite struct OfferDecisionTests {
    /// The line of `- id: <rule>` in the shipped rules file.
    static func line(ofRule id: String) throws -> Int {
        let text = try String(contentsOfFile: ServiceHarness.rulesDirectory + "/retention.rules.yaml", encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        let index = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "- id: \(id)" })
        return index + 1
    }

    @Test(arguments: TestBackend.selected)
    func fullPriceAnnualSubscriberTurningAutoRenewOffGetsTheOfferTheRulesSay(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            let token = UUID()
            let (bought, otid) = try await harness.subscribeFullPriceAnnual(appAccountToken: token)
            let off = try await harness.store.setAutoRenew(originalTransactionId: otid, enabled: false)
            let processed = try await harness.waitUntilProcessed(off.notification.notificationUUID)
            #expect(processed["state"]?.stringValue == "processed")

            let (status, body) = try await harness.request(.GET, "/v1/decisions?originalTransactionId=\(otid)")
            #expect(status == 200)
            let decisions = body.jsonObject["decisions"]?.arrayValue ?? []
            try #require(decisions.count == 1) // SUBSCRIBED is not a retention trigger
            let decision = try #require(decisions.first?.objectValue)
            #expect(decision["trigger"]?.stringValue == "AUTO_RENEW_DISABLED")
            #expect(decision["notificationUUID"]?.stringValue == off.notification.notificationUUID)
            #expect(decision["ruleId"]?.stringValue == "annual-full-price-payer")
            #expect(decision["ruleLine"]?.integerValue == Int64(try Self.line(ofRule: "annual-full-price-payer")))
            #expect(decision["offer"]?.objectValue?["id"]?.stringValue == "lumen-annual-40off")
            #expect(decision["bundleHash"]?.stringValue?.hasPrefix("sha256:") == true)
            // The catalog gives this offer 3 days (expiresAfter: 3d).
            let decidedAt = try #require(decision["decidedAt"]?.integerValue)
            #expect(decision["expiresAt"]?.integerValue == decidedAt + 3 * 86_400_000)
            let record = try #require(decision["record"]?.objectValue)
            #expect(record["explanation"]?.stringValue?.contains("annual-full-price-payer") == true)
            let price = record["facts"]?.objectValue?["subscription"]?.objectValue?["price"]
            #expect(price == .object(["milliunits": .integer(59_990), "currency": .string("USD")]))
            let id = try #require(decision["id"]?.stringValue)
            #expect(try await harness.request(.GET, "/v1/decisions/\(id)").status == 200)
            #expect(try await harness.request(.GET, "/v1/decisions/\(UUID().uuidString)").status == 404)

            // The simulator's ids are deterministic: this first subscription's unit is outside the
            // 5% holdout. The pending offer is signed afresh on every call.
            #expect(decision["heldOut"]?.boolValue == false)
            let (offerStatus, offerBody) = try await harness.request(.GET, "/v1/subscriptions/\(otid)/offer")
            #expect(offerStatus == 200)
            #expect(offerBody.jsonObject["decisionId"]?.stringValue == id)
            let offer = try #require(offerBody.jsonObject["offer"]?.objectValue)
            #expect(offer["type"]?.stringValue == "PROMOTIONAL")
            #expect(offer["productId"]?.stringValue == "com.lumen.pro.annual")
            #expect(offer["offerId"]?.stringValue == "lumen-annual-40off")
            let signature = try #require(offer["signature"]?.objectValue)
            let nonce = try #require(signature["nonce"]?.stringValue)
            let timestamp = try #require(signature["timestamp"]?.integerValue)
            let payload = [ServiceHarness.bundleId, harness.store.issuedKey.keyId, "com.lumen.pro.annual", "lumen-annual-40off",
                           token.uuidString.lowercased(), nonce, String(timestamp)].joined(separator: "\u{2063}")
            let encoded = try #require(signature["signature"]?.stringValue)
            let der = try #require(Data(base64Encoded: encoded))
            #expect(harness.store.issuedKey.publicKey.isValidSignature(
                try P256.Signing.ECDSASignature(derRepresentation: der), for: SHA256.hash(data: Data(payload.utf8))))
            let jws = try #require(offer["jws"]?.stringValue)
            let claims = try #require(JSONValue.parse(try OfferSignatureTests.base64URL(String(jws.split(separator: ".")[1])))?.objectValue)
            #expect(claims["transactionId"]?.stringValue == bought.transactionId)
            let again = try await harness.request(.GET, "/v1/subscriptions/\(otid)/offer?format=v1").body.jsonObject
            #expect(again["offer"]?.objectValue?["signature"]?.objectValue?["nonce"]?.stringValue != nonce)
            #expect(again["offer"]?.objectValue?["jws"] == nil)
            let listed = try await harness.request(.GET, "/v1/subscriptions/\(otid)/decisions").body.jsonObject
            #expect(listed["decisions"]?.arrayValue?.first?.objectValue?["id"]?.stringValue == id)

            // Apple delivering the same notification again decides nothing new.
            #expect(try await harness.deliver(off.notification.signedPayload).body.jsonObject["status"]?.stringValue == "duplicate")
            let after = try await harness.request(.GET, "/v1/decisions?originalTransactionId=\(otid)").body.jsonObject
            #expect(after["decisions"]?.arrayValue?.count == 1)
        }
    }

    @Test(arguments: TestBackend.selected)
    func onDemandDecisionsAreRecordedAndTheCapHolds(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            let token = UUID()
            let (bought, otid) = try await harness.subscribeFullPriceAnnual(appAccountToken: token)
            let decide = Data(#"{"appAccountToken":"\#(token.uuidString)","trigger":"IN_APP","format":"jws"}"#.utf8)

            let first = try await harness.request(.POST, "/v1/offers/decide", body: decide)
            #expect(first.status == 200)
            #expect(first.body.jsonObject["ruleId"]?.stringValue == "annual-full-price-payer")
            #expect(first.body.jsonObject["heldOut"] == .bool(false))
            let offer = try #require(first.body.jsonObject["offer"]?.objectValue)
            #expect(offer["offerId"]?.stringValue == "lumen-annual-40off")
            #expect(offer["jws"]?.stringValue != nil && offer["signature"] == nil)

            // At most one offer per customer every 180 days: the second decision makes none and
            // says why, and the first offer stays pending.
            let second = try await harness.request(.POST, "/v1/offers/decide", body: decide)
            #expect(second.status == 200)
            #expect(second.body.jsonObject["offer"] == .null)
            let secondId = try #require(second.body.jsonObject["decisionId"]?.stringValue)
            let record = try await harness.request(.GET, "/v1/decisions/\(secondId)").body.jsonObject
            let limits = record["record"]?.objectValue?["decision"]?.objectValue?["limits"]?.arrayValue ?? []
            #expect(limits.contains { $0.objectValue?["kind"] == .string("perCustomer") && $0.objectValue?["exceeded"] == .bool(true) })
            #expect(record["trigger"]?.stringValue == "IN_APP")
            #expect(record["notificationUUID"] == nil)
            let pending = try await harness.request(.GET, "/v1/subscriptions/\(otid)/offer").body.jsonObject
            #expect(pending["decisionId"] == first.body.jsonObject["decisionId"])

            let byTransaction = Data(#"{"transactionId":"\#(bought.transactionId ?? "")","trigger":"EXPIRED"}"#.utf8)
            #expect(try await harness.request(.POST, "/v1/offers/decide", body: byTransaction).status == 200)
            let unknown = Data(#"{"originalTransactionId":"2999999999999999"}"#.utf8)
            #expect(try await harness.request(.POST, "/v1/offers/decide", body: unknown).status == 404)
            let badTrigger = Data(#"{"originalTransactionId":"\#(otid)","trigger":"LATER"}"#.utf8)
            #expect(try await harness.request(.POST, "/v1/offers/decide", body: badTrigger).status == 400)
            #expect(try await harness.request(.POST, "/v1/offers/decide", body: Data("{}".utf8)).status == 400)
        }
    }

    @Test func aCustomerWithoutAPendingOfferGetsNull() async throws {
        try await ServiceHarness.with(.sqlite) { harness in
            let (status, body) = try await harness.request(.GET, "/v1/subscriptions/2000000000000001/offer")
            #expect(status == 200)
            #expect(body.jsonObject == ["offer": .null])
            let missing = try await harness.request(.GET, "/v1/decisions")
            #expect(missing.status == 400)
            #expect(try await harness.request(.GET, "/v1/subscriptions/1/offer?format=v9").status == 400)
        }
    }
}

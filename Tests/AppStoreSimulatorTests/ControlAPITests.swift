import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

/// The `/simulator/…` control API over real HTTP.
@Suite struct ControlAPITests {
    static func json(_ response: AppStoreHTTPResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    @Test func keyAndRootCertificateAreServed() async throws {
        try await withSimulator { harness in
            let key = try Self.json(try await harness.raw("GET", "/simulator/key", bearer: nil))
            #expect(key["keyId"] as? String == harness.store.issuedKey.keyId)
            #expect(key["issuerId"] as? String == harness.store.issuedKey.issuerId)
            #expect(key["privateKeyPEM"] as? String == harness.store.issuedKey.pemRepresentation)
            #expect(key["fileName"] as? String == "SubscriptionKey_\(harness.store.issuedKey.keyId).p8")
            let root = try Self.json(try await harness.raw("GET", "/simulator/root-certificate", bearer: nil))
            #expect((root["rootCertificateDER"] as? String).flatMap { Data(base64Encoded: $0) } == harness.store.pki.rootCertificateDER)
        }
    }

    @Test func scenarioRouteSubscribesAndTheAPISeesIt() async throws {
        try await withSimulator { harness in
            let body = #"{"productId":"com.example.yearly","price":59990,"period":"P1Y","offer":{"type":3,"discountType":"PAY_AS_YOU_GO","identifier":"CODE1","price":2990,"periodCount":3,"period":"P1M"}}"#
            let response = try await harness.raw("POST", "/simulator/scenarios/subscribe", body: Data(body.utf8), bearer: nil)
            #expect(response.status == 200)
            let result = try AppStoreJSON.decoder().decode(ScenarioResult.self, from: response.body)
            #expect(result.notification.notificationType == .subscribed)
            #expect(result.transaction?.offerType == .offerCode)
            #expect(result.transaction?.offerPeriod == "P3M")
            #expect(result.transaction?.price == 2990)
            #expect(result.renewalInfo?.renewalPrice == 2990)
            #expect(result.renewalInfo?.offerDiscountType == .payAsYouGo)
            let id = try #require(result.transactionId)
            let info = try await harness.client.getTransactionInfo(transactionId: id)
            #expect(info.signedTransactionInfo != nil)
            let log = try await harness.raw("GET", "/simulator/notifications", bearer: nil)
            let entries = try AppStoreJSON.decoder().decode([SimulatedNotification].self, from: log.body)
            #expect(entries.map(\.notificationUUID) == [result.notification.notificationUUID])
        }
    }

    @Test func unknownSubscriptionIs404AndBadBodyIs400() async throws {
        try await withSimulator { harness in
            let missing = try await harness.raw("POST", "/simulator/scenarios/renew",
                                                body: Data(#"{"originalTransactionId":"1"}"#.utf8), bearer: nil)
            #expect(missing.status == 404)
            let bad = try await harness.raw("POST", "/simulator/scenarios/subscribe", body: Data("{}".utf8), bearer: nil)
            #expect(bad.status == 400)
        }
    }

    @Test func clockAdvanceMovesSimulatedTime() async throws {
        try await withSimulator { harness in
            let before = harness.store.now
            let response = try await harness.raw("POST", "/simulator/clock/advance",
                                                 body: Data(#"{"seconds":86400}"#.utf8), bearer: nil)
            #expect(response.status == 200)
            #expect(harness.store.now == before.addingTimeInterval(86400))
        }
    }

    @Test func faultAndRateLimitRoutesConfigureTheAPI() async throws {
        try await withSimulator { harness in
            let id = try await harness.buyConsumable()
            let fault = #"{"kind":"error","endpoint":"getTransactionInfo","status":400,"errorCode":9990000,"errorMessage":"Testing error."}"#
            #expect(try await harness.raw("POST", "/simulator/faults", body: Data(fault.utf8), bearer: nil).status == 200)
            let failure = await apiFailure { _ = try await harness.client.getTransactionInfo(transactionId: id) }
            #expect(failure?.rawErrorCode == 9_990_000)
            _ = try await harness.client.getTransactionInfo(transactionId: id)

            let rateLimited = #"{"kind":"error","endpoint":"getTransactionInfo","status":429,"errorCode":4290000,"errorMessage":"Rate limit exceeded.","retryAfterMilliseconds":2000}"#
            #expect(try await harness.raw("POST", "/simulator/faults", body: Data(rateLimited.utf8), bearer: nil).status == 200)
            let limited = try #require(await apiFailure { _ = try await harness.client.getTransactionInfo(transactionId: id) })
            #expect(limited.apiError == .rateLimitExceeded)
            #expect(limited.retryAfter.map { $0 > Date() } == true)

            let limit = #"{"limit":0,"windowSeconds":60}"#
            #expect(try await harness.raw("PUT", "/simulator/rate-limits/getTransactionInfo", body: Data(limit.utf8), bearer: nil).status == 200)
            #expect(await apiFailure { _ = try await harness.client.getTransactionInfo(transactionId: id) }?.httpStatus == 429)
            #expect(try await harness.raw("DELETE", "/simulator/rate-limits", bearer: nil).status == 200)
            _ = try await harness.client.getTransactionInfo(transactionId: id)
        }
    }

    @Test func consumptionBodiesAreReadable() async throws {
        try await withSimulator { harness in
            let id = try await harness.buyConsumable()
            try await harness.client.sendConsumptionInformation(transactionId: id, request: ConsumptionRequest(
                customerConsented: true, consumptionPercentage: 10000, deliveryStatus: .delivered, sampleContentProvided: true))
            let response = try await harness.raw("GET", "/simulator/consumption-requests", bearer: nil)
            let received = try AppStoreJSON.decoder().decode([ReceivedConsumptionInformation].self, from: response.body)
            #expect(received.map(\.transactionId) == [id])
            #expect(received.first?.request.consumptionPercentage == 10000)
        }
    }

    @Test func rejectedConsumptionRequestsAreListed() async throws {
        try await withSimulator { harness in
            let id = try await harness.buyConsumable()
            let body = #"{"customerConsented":true,"deliveryStatus":"UNDELIVERED_OTHER","sampleContentProvided":false,"consumptionPercentage":5000}"#
            let put = try await harness.raw("PUT", "/inApps/v2/transactions/consumption/\(id)", body: Data(body.utf8),
                                            bearer: try harness.bearer())
            #expect(put.status == 400)
            let response = try await harness.raw("GET", "/simulator/consumption-requests/rejected", bearer: nil)
            #expect(response.status == 200)
            let rejected = try AppStoreJSON.decoder().decode([RejectedConsumptionInformation].self, from: response.body)
            #expect(rejected.map(\.transactionId) == [id])
            #expect(rejected.first?.rawBody == body)
            #expect(rejected.first?.httpStatus == 400)
            #expect(rejected.first?.errorCode == SimulatorAPIErrorCode.undeliveredConsumptionPercentageNonZero)
            #expect(rejected.first?.receivedDate == harness.store.now)
            let accepted = try await harness.raw("GET", "/simulator/consumption-requests", bearer: nil)
            #expect(try AppStoreJSON.decoder().decode([ReceivedConsumptionInformation].self, from: accepted.body).isEmpty)
        }
    }
}

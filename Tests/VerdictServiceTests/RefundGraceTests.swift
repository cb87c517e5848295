import AppStoreServer
import AppStoreSimulator
import Foundation
import NIOHTTP1
import Testing
import VerdictService
import VerdictTestSupport

/// Time for the app to answer a refund request: `consumption.requested` goes to the webhook, and
/// the decision waits `VERDICT_CONSUMPTION_GRACE` so facts the backend reports meanwhile are the
/// ones Apple receives; `"final": true` ends the wait. The service's clock is frozen and moved by
/// the test, so "10 s later" and "after the grace period" are exact.
@Suite(.serialized) struct RefundGraceTests {
    static let secret = "whsec-0123456789abcdef"

    /// A consenting customer's credit pack and Apple's refund request about it, with a 600 s grace
    /// period; `body` gets the harness, the service's clock, the transaction and the event.
    static func withRequestInGrace(
        _ backend: TestBackend,
        _ body: (ServiceHarness, SimulatorClock, String, [String: JSONValue]) async throws -> Void
    ) async throws {
        try await WebhookReceiver.with(failFirst: 0) { receiver, url in
            let serviceClock = SimulatorClock(frozenAt: Date(appStoreMilliseconds: Date().appStoreMilliseconds))
            let settings = [
                "VERDICT_WEBHOOK_URL": url.absoluteString, "VERDICT_WEBHOOK_SECRET": Self.secret,
                "VERDICT_CONSUMPTION_GRACE": "600",
            ]
            try await ServiceHarness.with(backend, extraSettings: settings, serviceClock: serviceClock) { harness in
                let token = UUID()
                try await harness.consent(token)
                let id = try await harness.buy("com.lumen.credits.100", token: token)
                _ = try await harness.store.requestRefund(transactionId: id, reason: .unintendedPurchase)
                let event = try await Self.event(receiver, serviceClock, transactionId: id)
                // Nothing is decided yet: the request waits for the app.
                #expect(try await harness.request(.GET, "/v1/consumption/\(id)").status == 404)
                try await body(harness, serviceClock, id, event)
            }
        }
    }

    /// The `consumption.requested` event delivered for `transactionId`. After two seconds without
    /// it the service's clock moves on a second per poll (see ``decided(_:_:_:)``).
    static func event(_ receiver: WebhookReceiver, _ clock: SimulatorClock, transactionId: String) async throws -> [String: JSONValue] {
        let start = ContinuousClock.now
        while ContinuousClock.now < start + .seconds(30) {
            if ContinuousClock.now > start + .seconds(2) { clock.advance(by: 1) }
            for delivery in receiver.deliveries {
                let event = JSONValue.parse(Data(delivery.body.utf8))?.objectValue ?? [:]
                if event["type"]?.stringValue == "consumption.requested", event[path: "data.transactionId"]?.stringValue == transactionId {
                    return event
                }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ServiceTestError("no consumption.requested event for \(transactionId)")
    }

    /// Waits until the request is decided (it has no record before) and settled. The service's
    /// clock moves on a second per poll meanwhile, as time would: a retry the machine's load
    /// causes (a busy database) is put off on that clock, and must come due.
    static func decided(_ harness: ServiceHarness, _ clock: SimulatorClock, _ id: String) async throws -> [String: JSONValue] {
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let (status, body) = try await harness.request(.GET, "/v1/consumption/\(id)")
            if status == 200, body.jsonObject["state"]?.stringValue != "pending" { return body.jsonObject }
            guard ContinuousClock.now < deadline else {
                let queued = String(decoding: try await harness.request(.GET, "/v1/jobs?state=queued").body, as: UTF8.self)
                let running = String(decoding: try await harness.request(.GET, "/v1/jobs?state=running").body, as: UTF8.self)
                throw ServiceTestError("the refund request for \(id) was never decided; queued: \(queued.prefix(1_500)); running: \(running.prefix(1_500))")
            }
            try await Task.sleep(for: .milliseconds(100))
            clock.advance(by: 1)
        }
    }

    @Test(arguments: TestBackend.selected)
    func factsReportedTenSecondsLaterAreWhatAppleReceives(_ backend: TestBackend) async throws {
        try await Self.withRequestInGrace(backend) { harness, clock, id, event in
            #expect(event[path: "data.consumptionRequestReason"]?.stringValue == "UNINTENDED_PURCHASE")
            let deadline = try #require(event[path: "data.deadline"]?.integerValue)
            let decidesAt = try #require(event[path: "data.decidesAt"]?.integerValue)
            let uuid = try #require(event[path: "data.notificationUUID"]?.stringValue)
            let stored = try await harness.request(.GET, "/v1/notifications/\(uuid)").body.jsonObject
            let receivedAt = try #require(stored["receivedAt"]?.integerValue)
            #expect(decidesAt - receivedAt == 600_000)
            #expect(deadline > decidesAt)

            clock.advance(by: 10)
            try await harness.reportFacts(id, #"{"deliveryStatus":"UNDELIVERED_SERVER_OUTAGE","consumptionPercentage":0}"#)
            // Still waiting (not final); at the end of the grace period it decides on them.
            try await Task.sleep(for: .milliseconds(700))
            #expect(try await harness.request(.GET, "/v1/consumption/\(id)").status == 404)
            clock.advance(by: 600)
            let record = try await Self.decided(harness, clock, id)
            #expect(record["state"]?.stringValue == "sent")
            let received = try #require(await harness.receivedBodies(id).last)
            #expect(received.request.deliveryStatus.rawValue == "UNDELIVERED_SERVER_OUTAGE")
        }
    }

    @Test(arguments: TestBackend.selected)
    func finalFactsEndTheWait(_ backend: TestBackend) async throws {
        try await Self.withRequestInGrace(backend) { harness, clock, id, _ in
            clock.advance(by: 10)
            try await harness.reportFacts(id, #"{"deliveryStatus":"DELIVERED","consumptionPercentage":100000,"final":true}"#)
            let record = try await Self.decided(harness, clock, id)
            #expect(record["state"]?.stringValue == "sent")
            #expect((record["decidedAt"]?.integerValue ?? 0) < (record["requestedAt"]?.integerValue ?? 0) + 600_000)
            let received = try #require(await harness.receivedBodies(id).last)
            #expect(received.request.deliveryStatus.rawValue == "DELIVERED")
            let facts = try await harness.request(.GET, "/v1/transactions/\(id)/facts").body.jsonObject
            #expect(facts["final"] == .bool(true))
        }
    }
}

import AppStoreServer
import AppStoreSimulator
import Foundation
import NIOHTTP1
import Testing
import VerdictService

/// Steps of refund scenarios against a ``ServiceHarness``: purchases in the simulator (processed
/// by the service before the next step), what the app backend tells Verdict (consent, facts),
/// Apple's refund request, and reading back Verdict's record and what Apple received.
extension ServiceHarness {
    /// Buys a one-time product (consumable by default) and waits until the service processed it.
    func buy(_ productId: String, type: ProductType = .consumable, price: Int64 = 4_990, token: UUID? = nil) async throws -> String {
        let bought = try await settled(store.purchase(OneTimePurchaseRequest(
            productId: productId, type: type, price: price, currency: "USD", appAccountToken: token)))
        return try #require(bought.transactionId)
    }

    /// Records the customer's consent answer in the ledger.
    func consent(_ token: UUID, _ consented: Bool = true) async throws {
        let body = #"{"consented":\#(consented),"source":"test","termsVersion":"2026-11"}"#
        let (status, response) = try await request(.PUT, "/v1/customers/\(token.uuidString)/consent", body: Data(body.utf8))
        #expect(status == 200, "consent: \(String(decoding: response, as: UTF8.self))")
    }

    /// Reports usage facts for a purchase (`json` is the body).
    func reportFacts(_ transactionId: String, _ json: String) async throws {
        let (status, response) = try await request(.PUT, "/v1/transactions/\(transactionId)/facts", body: Data(json.utf8))
        #expect(status == 200, "facts: \(String(decoding: response, as: UTF8.self))")
    }

    /// Apple asks about a refund; waits until the notification is processed and, unless
    /// `settle` is false, until the record has left `pending`. Returns the record.
    @discardableResult
    func askRefund(_ transactionId: String, _ reason: ConsumptionRequestReason, settle: Bool = true) async throws -> [String: JSONValue] {
        try await settled(store.requestRefund(transactionId: transactionId, reason: reason))
        return settle ? try await settledConsumption(transactionId) : try await consumption(transactionId)
    }

    /// `GET /v1/consumption/{transactionId}`.
    func consumption(_ transactionId: String) async throws -> [String: JSONValue] {
        let (status, body) = try await request(.GET, "/v1/consumption/\(transactionId)")
        guard status == 200 else { throw ServiceTestError("GET /v1/consumption/\(transactionId) answered \(status)") }
        return body.jsonObject
    }

    /// Polls the record until its state is not `pending`.
    func settledConsumption(_ transactionId: String, timeout: Duration = .seconds(30)) async throws -> [String: JSONValue] {
        try await consumption(transactionId, timeout: timeout, until: { $0["state"]?.stringValue != "pending" }) {
            "still pending: \($0["attempts"] ?? .null)"
        }
    }

    /// Polls the record until it lists `count` submission attempts; returns them.
    func consumptionAttempts(_ transactionId: String, count: Int, timeout: Duration = .seconds(30)) async throws -> [[String: JSONValue]] {
        try await consumption(transactionId, timeout: timeout, until: { $0.consumptionAttempts.count >= count }) {
            "has \($0.consumptionAttempts.count) attempts, not \(count)"
        }.consumptionAttempts
    }

    /// Polls the record until `done` holds; on timeout fails with `stillNot`'s description of it.
    private func consumption(
        _ transactionId: String, timeout: Duration, until done: ([String: JSONValue]) -> Bool,
        _ stillNot: ([String: JSONValue]) -> String
    ) async throws -> [String: JSONValue] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let record = try await consumption(transactionId)
            if done(record) { return record }
            guard ContinuousClock.now < deadline else {
                throw ServiceTestError("consumption request for \(transactionId) \(stillNot(record))")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// The bodies the simulated App Store accepted for a transaction.
    func receivedBodies(_ transactionId: String) async -> [ReceivedConsumptionInformation] {
        await store.receivedConsumptionInformation().filter { $0.transactionId == transactionId }
    }
}

extension Dictionary where Key == String, Value == JSONValue {
    /// A nested value by dotted path (`record.body.corrections`).
    subscript(path path: String) -> JSONValue? { JSONValue.object(self).value(at: path) }

    /// A consumption record's submission attempts.
    var consumptionAttempts: [[String: JSONValue]] {
        self["attempts"]?.arrayValue?.compactMap(\.objectValue) ?? []
    }
}

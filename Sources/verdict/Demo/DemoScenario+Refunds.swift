import AppStoreServer
import AppStoreSimulator
import Foundation

/// The refund cases: customers who ask Apple for their money back. Lumen's app backend has
/// already told Verdict what it knows (consent, usage facts); Apple sends a
/// CONSUMPTION_REQUEST, the rules decide what to answer, and the answer goes to Apple's Send
/// Consumption Information endpoint — or, without the customer's consent, nothing is sent.
extension DemoScenario {
    /// One refund case: the purchase, what the app reported, and the customer's reason.
    struct RefundCase {
        var name: String
        var title: String
        var productId: String
        /// Product, type, price and timing in one line.
        var customer: String
        var transactionId: String
        var originalTransactionId: String
        var appAccountToken: UUID
        var consented: Bool
        var facts: DemoRefundFacts
        var reason: ConsumptionRequestReason
    }

    /// Plays (e)–(h), prints each, then has Apple decide two of them.
    func playRefunds() async throws -> [DemoCaseResult] {
        var results: [DemoCaseResult] = []

        // (e) Bought the vintage filter pack by mistake a few minutes ago and never opened the app since.
        results.append(try await play(oneTimePurchase(
            OneTimePurchaseRequest(productId: Product.vintageFilters, type: .nonConsumable, price: 2_990, currency: "USD"),
            askingAfter: 4, name: "accidental-purchase", title: "(e) Accidental purchase, never used",
            customer: "\(Product.vintageFilters) (non-consumable) · \(DemoFormat.money(2_990, "USD")) · bought minutes before asking",
            consented: true,
            facts: DemoRefundFacts(deliveryStatus: .delivered, consumptionPercentage: 0, sampleContentProvided: true, sessionsSincePurchase: 0),
            reason: .unintendedPurchase)))

        // (f) 100 AI-retouch credits paid for but never credited: the server was down.
        results.append(try await play(oneTimePurchase(
            OneTimePurchaseRequest(productId: Product.credits, type: .consumable, price: 4_990, currency: "USD"),
            name: "undelivered-credits", title: "(f) Credits paid for but never delivered",
            customer: "\(Product.credits) (consumable) · \(DemoFormat.money(4_990, "USD")) · the credits never arrived (server outage)",
            consented: true,
            facts: DemoRefundFacts(deliveryStatus: .undeliveredServerOutage, consumptionPercentage: 0, sampleContentProvided: false, sessionsSincePurchase: 1),
            reason: .fulfillmentIssue)))

        // (g) An annual subscriber who uses Pro every day asks for the year back.
        let heavyToken = UUID()
        let heavy = try await subscribe(SubscribeRequest(
            productId: Product.annual, price: 59_990, currency: "USD", period: .oneYear, appAccountToken: heavyToken))
        results.append(try await play(RefundCase(
            name: "heavy-subscriber", title: "(g) Heavily used annual subscription", productId: Product.annual,
            customer: "\(Product.annual) (auto-renewable) · \(DemoFormat.money(59_990, "USD")) a year · uses Pro daily",
            transactionId: heavy, originalTransactionId: heavy, appAccountToken: heavyToken, consented: true,
            facts: DemoRefundFacts(deliveryStatus: .delivered, consumptionPercentage: nil, sampleContentProvided: true, sessionsSincePurchase: 214),
            reason: .unsatisfiedWithPurchase)))

        // (h) Used the filter pack a lot, unhappy, but never agreed to share data with Apple.
        results.append(try await play(oneTimePurchase(
            OneTimePurchaseRequest(productId: Product.vintageFilters, type: .nonConsumable, price: 2_990, currency: "USD"),
            name: "no-consent", title: "(h) Customer who never consented to data sharing",
            customer: "\(Product.vintageFilters) (non-consumable) · \(DemoFormat.money(2_990, "USD")) · used in 5 sessions",
            consented: false,
            facts: DemoRefundFacts(deliveryStatus: .delivered, consumptionPercentage: nil, sampleContentProvided: true, sessionsSincePurchase: 5),
            reason: .unsatisfiedWithPurchase)))

        try await appleDecides(&results, grant: "accidental-purchase", decline: "heavy-subscriber")
        return results
    }

    /// Cases (e), (f) and (h): `request` bought by a new customer (with an app account token of
    /// its own), who asks for a refund `minutes` later.
    func oneTimePurchase(
        _ request: OneTimePurchaseRequest, askingAfter minutes: Double = 0, name: String, title: String, customer: String,
        consented: Bool, facts: DemoRefundFacts, reason: ConsumptionRequestReason
    ) async throws -> RefundCase {
        var request = request
        let token = UUID()
        request.appAccountToken = token
        let transactionId = try await buy(request)
        if minutes > 0 { minuteLater(minutes) }
        return RefundCase(
            name: name, title: title, productId: request.productId, customer: customer, transactionId: transactionId,
            originalTransactionId: transactionId, appAccountToken: token, consented: consented, facts: facts, reason: reason)
    }

    /// Tells Verdict what the app knows, has the customer ask Apple, waits until Verdict
    /// answered (or decided not to), and prints the case.
    func play(_ refundCase: RefundCase) async throws -> DemoCaseResult {
        let token = refundCase.appAccountToken.uuidString.lowercased()
        if refundCase.consented {
            try await client.service(.PUT, "/v1/customers/\(token)/consent",
                                     json: #"{"consented":true,"source":"demo","termsVersion":"2026-11"}"#)
        }
        try await client.service(.PUT, "/v1/transactions/\(refundCase.transactionId)/facts", json: try refundCase.facts.json())
        minuteLater()
        try await settled(store.requestRefund(transactionId: refundCase.transactionId, reason: refundCase.reason))
        let record = try await client.settledConsumption(refundCase.transactionId)
        minuteLater()

        let result = DemoCaseResult(
            name: refundCase.name, title: refundCase.title, kind: .refund, productId: refundCase.productId,
            originalTransactionId: refundCase.originalTransactionId, transactionId: refundCase.transactionId,
            appAccountToken: token, ruleId: record.string("ruleId"), state: record.string("state"),
            blockedBy: record.string("blockedBy"), consentBasis: record.string("consentBasis"))
        caseHeader(refundCase.title)
        output.field("customer", refundCase.customer)
        output.field("consent", refundCase.consented
            ? "agreed in the app to share usage data with Apple (recorded in Verdict)"
            : "never asked / never agreed — nothing recorded")
        output.field("app reported", refundCase.facts.text)
        output.field("refund reason", refundCase.reason.rawValue)
        output.field("rule", Self.ruleText(
            result.ruleId, line: record["ruleLine"]?.integerValue, blockedBy: result.blockedBy,
            otherwise: "none matched — the rules' default answer applies"))
        output.field("blocked by", result.blockedBy ?? "—")
        output.field("consent basis", result.consentBasis ?? "?")
        output.field("state", result.state ?? "?")
        explain(record.string("record.explanation"))
        let received = try await client.bodiesAppleReceived(transactionId: refundCase.transactionId)
        if let body = received.last {
            output.field("Apple received", body)
        } else {
            let reason = record.string("record.notSentReason") ?? record.string("lastError") ?? "no reason recorded"
            output.field("Apple received", "nothing sent (\(reason))")
        }
        return result
    }

    /// Apple grants one request and declines another; the service records each outcome on the
    /// consumption request record.
    func appleDecides(_ results: inout [DemoCaseResult], grant: String, decline: String) async throws {
        output.header("Apple decides")
        for (name, granted) in [(grant, true), (decline, false)] {
            guard let index = results.firstIndex(where: { $0.name == name }) else { continue }
            let transactionId = results[index].transactionId
            if granted {
                try await settled(store.grantRefund(transactionId: transactionId))
            } else {
                try await settled(store.declineRefund(transactionId: transactionId))
            }
            minuteLater()
            let record = try await client.consumptionWithOutcome(transactionId)
            results[index].outcome = record.string("outcome")
            output.field(String(results[index].title.prefix(3)) + (granted ? " granted" : " declined"),
                         "Verdict recorded Apple's \(results[index].outcome ?? "?") on the refund request record")
        }
    }
}

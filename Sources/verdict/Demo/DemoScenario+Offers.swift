import AppStoreServer
import AppStoreSimulator
import Foundation

/// The retention-offer cases: four Lumen subscribers with different prices, currencies and
/// offer histories; what the shipped rules decide for each, why, and the signed offer the app
/// would show.
extension DemoScenario {
    /// What one offer case shows besides the decision.
    struct OfferCase {
        var name: String
        var title: String
        var productId: String
        /// Product, price, currency and history in one line.
        var customer: String
        /// The event the decision was made on.
        var event: String
        var originalTransactionId: String
        /// The notification the decision was made on.
        var notificationUUID: String
    }

    /// Plays (a)–(d) and prints each. A customer who lands in the 5 % holdout is shown as a
    /// labelled case of its own, and the case is played again with a new customer, so every case
    /// also shows the offer made.
    func playOffers() async throws -> [DemoCaseResult] {
        var results: [DemoCaseResult] = []

        // (a) One year bought at the full annual price.
        results += try await playTreated {
            try await turningAutoRenewOff(
                SubscribeRequest(productId: Product.annual, price: 59_990, currency: "USD", period: .oneYear),
                name: "annual-full-price", title: "(a) Annual subscriber who paid full price",
                customer: "\(Product.annual) · \(DemoFormat.money(59_990, "USD")) a year · 1 payment at full price")
        }

        // (b) Six monthly payments in yen at full price: the A/B-tested offer.
        results += try await playTreated {
            try await turningAutoRenewOff(
                SubscribeRequest(productId: Product.monthly, price: 1_200_000, currency: "JPY", storefront: "JPN"), renewals: 5,
                name: "monthly-loyal-jpy", title: "(b) Loyal monthly subscriber in Japan",
                customer: "\(Product.monthly) · \(DemoFormat.money(1_200_000, "JPY")) a month (JPN storefront) · 6 payments at full price")
        }

        // (c) Only ever used the free trial.
        results += try await playTreated {
            try await turningAutoRenewOff(
                SubscribeRequest(
                    productId: Product.monthly, price: 7_990, currency: "USD",
                    offer: SimulatedOffer(type: .introductoryOffer, discountType: .freeTrial, price: 0, period: .oneWeek)),
                name: "free-trial-only", title: "(c) Free-trial user who never paid",
                customer: "\(Product.monthly) · \(DemoFormat.money(7_990, "USD")) a month · only a 1-week free trial (introductory offer, 0.00)",
                event: "turned auto-renew off during the trial")
        }

        // (d) Paid twice, cancelled, and the subscription ran out: a win-back offer.
        results += try await playTreated {
            let lapsed = try await subscribe(SubscribeRequest(productId: Product.monthly, price: 7_990, currency: "USD"))
            try await renew(lapsed, times: 1)
            try await settled(store.setAutoRenew(originalTransactionId: lapsed, enabled: false))
            minuteLater()
            let eligible = ["lumen-winback-monthly-50off", "lumen-winback-monthly-2free"]
            let expired = try await settled(store.expire(
                originalTransactionId: lapsed, subtype: .voluntary, eligibleWinBackOfferIds: eligible))
            return OfferCase(
                name: "lapsed-winback", title: "(d) Lapsed monthly subscriber", productId: Product.monthly,
                customer: "\(Product.monthly) · \(DemoFormat.money(7_990, "USD")) a month · 2 payments, then turned auto-renew off",
                event: "subscription expired (EXPIRED / VOLUNTARY); Apple says they are eligible for\n"
                    + eligible.joined(separator: ", "),
                originalTransactionId: lapsed, notificationUUID: expired.notification.notificationUUID)
        }
        return results
    }

    /// Cases (a)–(c): a new subscriber bought with `request`, renewed `renewals` times and then
    /// turned auto-renew off; the case of that notification.
    func turningAutoRenewOff(
        _ request: SubscribeRequest, renewals: Int = 0, name: String, title: String, customer: String,
        event: String = "turned auto-renew off"
    ) async throws -> OfferCase {
        let subscriber = try await subscribe(request)
        try await renew(subscriber, times: renewals)
        let turnedOff = try await settled(store.setAutoRenew(originalTransactionId: subscriber, enabled: false))
        return OfferCase(
            name: name, title: title, productId: request.productId, customer: customer, event: event,
            originalTransactionId: subscriber, notificationUUID: turnedOff.notification.notificationUUID)
    }

    /// Plays a case and reports it; while its customer lands in the holdout (5 %), that customer is
    /// reported as a labelled case of its own and the history is played again with a new customer
    /// (at most five customers).
    func playTreated(_ play: () async throws -> OfferCase) async throws -> [DemoCaseResult] {
        var results: [DemoCaseResult] = []
        for _ in 0..<5 {
            var offerCase = try await play()
            let heldOut = try await decision(of: offerCase)?["heldOut"]?.boolValue == true
            if heldOut {
                offerCase.name += "-held-out"
                offerCase.title += " — held out (the 5% control group)"
            }
            results.append(try await report(offerCase))
            minuteLater()
            guard heldOut else { break }
        }
        return results
    }

    /// The decision recorded for `offerCase`'s notification.
    func decision(of offerCase: OfferCase) async throws -> [String: JSONValue]? {
        let list = try await client.service(.GET, "/v1/decisions?originalTransactionId=\(offerCase.originalTransactionId)")["decisions"]?
            .arrayValue?.compactMap(\.objectValue) ?? []
        return list.first(where: { $0.string("notificationUUID") == offerCase.notificationUUID }) ?? list.first
    }

    /// Prints the decision made on `offerCase`'s notification, its explanation and the pending
    /// offer as the app backend would fetch it; returns the case's result.
    func report(_ offerCase: OfferCase) async throws -> DemoCaseResult {
        let otid = offerCase.originalTransactionId
        var result = DemoCaseResult(
            name: offerCase.name, title: offerCase.title, kind: .offer, productId: offerCase.productId,
            originalTransactionId: otid,
            transactionId: await store.latestTransaction(originalTransactionId: otid)?.transactionId ?? otid)
        caseHeader(offerCase.title)
        output.field("customer", offerCase.customer)
        output.field("what happened", offerCase.event)

        guard let decision = try await decision(of: offerCase) else {
            output.field("decision", "none recorded")
            return result
        }
        result.decisionId = decision.string("id")
        result.ruleId = decision.string("ruleId")
        result.offerId = decision.string("offer.id")
        result.offerType = decision.string("offer.type")
        result.heldOut = decision["heldOut"]?.boolValue
        let blockedBy = decision.string("record.decision.blockedBy.id")

        output.field("rule", Self.ruleText(result.ruleId, line: decision["ruleLine"]?.integerValue, blockedBy: blockedBy))
        output.field("offer", result.offerId.map { "\($0) (\(result.offerType ?? "?"))" } ?? "none")
        output.field("held out", result.heldOut == true
            ? "yes — in the 5% control group: no offer is shown (the record keeps the one they would have got)"
            : "no  (5% of subscribers are held out as a control group)")
        explain(decision.string("record.explanation"))

        let pending = try await client.service(.GET, "/v1/subscriptions/\(otid)/offer")
        let offer = pending["offer"]?.objectValue
        result.signed = offer?["jws"]?.stringValue != nil || offer?["signature"]?.objectValue != nil
        result.keyIdentifier = offer?["signature"]?.objectValue?["keyIdentifier"]?.stringValue
        output.field("for the app", Self.offerText(offer, heldOut: result.heldOut == true))
        return result
    }

    /// `annual-full-price-payer  (line 86 of the rules)`, or why no rule decided.
    static func ruleText(_ ruleId: String?, line: Int64?, blockedBy: String?, otherwise: String = "none matched") -> String {
        if let ruleId { return ruleId + (line.map { "  (line \($0) of the rules)" } ?? "") }
        if let blockedBy { return "none — vetoed by \(blockedBy)" }
        return otherwise
    }

    /// The pending offer as `GET /v1/customers/{otid}/offer` answered it.
    static func offerText(_ offer: [String: JSONValue]?, heldOut: Bool) -> String {
        guard let offer else {
            return heldOut ? "no pending offer (held out)" : "no pending offer"
        }
        var lines = ["\(offer["offerId"]?.stringValue ?? "?") for \(offer["productId"]?.stringValue ?? "?")"]
        if let expiresAt = offer["expiresAt"]?.integerValue { lines[0] += ", pending until \(DemoFormat.instant(expiresAt))" }
        let signature = offer["signature"]?.objectValue
        let jws = offer["jws"]?.stringValue
        guard signature != nil || jws != nil else {
            lines.append("not signed: win-back offers are Apple's to present (StoreKit shows them)")
            return lines.joined(separator: "\n")
        }
        func row(_ key: String, _ value: String) -> String { key.padding(toLength: 15, withPad: " ", startingAt: 0) + value }
        if let signature {
            lines.append("signature (V1, for Product.SubscriptionOffer.Signature):")
            lines.append("  " + row("keyIdentifier", signature["keyIdentifier"]?.stringValue ?? "?"))
            lines.append("  " + row("nonce", signature["nonce"]?.stringValue ?? "?"))
            if let timestamp = signature["timestamp"]?.integerValue {
                lines.append("  " + row("timestamp", "\(timestamp)  (\(DemoFormat.instant(timestamp)))"))
            }
            lines.append("  " + row("signature", DemoFormat.shortened(signature["signature"]?.stringValue ?? "?", head: 24, tail: 8)))
        }
        if let jws {
            lines.append("jws (for StoreKit 2's promotionalOffer purchase option):")
            lines.append("  " + DemoFormat.shortened(jws))
        }
        return lines.joined(separator: "\n")
    }
}

import AppStoreServer
import Foundation
import VerdictStorage

/// The Customer page: one subscriber found by originalTransactionId, appAccountToken or
/// transactionId, and their timeline — notifications, transactions (price, currency, offer type and
/// discount type, refunds), decisions, refund requests with what Apple was told and answered, and
/// consent — newest first.
struct ConsoleCustomerView {
    typealias Stores = ConsentStore & ConsumptionRequestStore & CustomerStore & NotificationStore & OfferDecisionStore
        & TransactionFactStore & TransactionStore

    struct Customer {
        var originalTransactionId: String
        var appAccountToken: String
        var history: String
        var pending: String
        var consent: String
        var events: [Event]
    }

    struct Event {
        var millis: Int64
        var at: String
        var kind: String
        var title: String
        var detail: String
        var href: String?
    }

    /// The app the search form keeps (nil: the session sees one app).
    var app: String?
    var query: String
    var notFound: String?
    var customer: Customer?

    /// The page for `query` (empty: the search form alone), among the subscribers of the app
    /// `repository` acts for; `links` keep that app.
    static func find(_ query: String, in repository: any Stores, links: ConsoleLinks, now: Int64) async throws -> ConsoleCustomerView {
        let query = query.trimmingCharacters(in: .whitespaces)
        guard !query.isEmpty else { return ConsoleCustomerView(app: links.app, query: "", notFound: nil, customer: nil) }
        guard let otid = try await subscription(for: query, in: repository),
              let record = try await repository.customer(originalTransactionId: otid)
        else {
            return ConsoleCustomerView(app: links.app, query: query, notFound: "No subscriber is stored under \(query).", customer: nil)
        }
        return ConsoleCustomerView(
            app: links.app, query: query, notFound: nil, customer: try await customer(record, repository, links: links, now: now))
    }

    /// The originalTransactionId `query` names, as itself, a token, or a transaction.
    private static func subscription(for query: String, in repository: any Stores) async throws -> String? {
        if let uuid = UUID(uuidString: query) {
            return try await repository.customers(appAccountToken: uuid.uuidString.lowercased()).first?.originalTransactionId
        }
        guard query.count <= 64, query.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return nil }
        if try await repository.customer(originalTransactionId: query) != nil { return query }
        return try await repository.transaction(id: query)?.originalTransactionId
    }

    private static func customer(_ record: CustomerRecord, _ repository: any Stores, links: ConsoleLinks, now: Int64) async throws -> Customer {
        let otid = record.originalTransactionId
        var events: [Event] = []
        func add(_ millis: Int64, _ kind: String, _ title: String, _ detail: String, _ href: String? = nil) {
            events.append(Event(millis: millis, at: ConsoleFormat.instant(millis), kind: kind, title: title, detail: detail, href: href))
        }
        for notification in try await repository.notifications(originalTransactionId: otid, limit: 100) {
            let note = notification.notification
            add(note.signedDate, "notification", [note.notificationType, note.subtype].compactMap { $0 }.joined(separator: " / "),
                "\(notification.state.rawValue)\(note.transactionId.map { " · transaction \($0)" } ?? "")")
        }
        let decoder = AppStoreJSON.decoder()
        let transactions = try await repository.customerTransactions(originalTransactionId: otid)
        for transaction in transactions {
            let payload = try? transaction.payload(decoder)
            var parts = [transaction.productId]
            if let price = payload?.price, let currency = payload?.currency {
                parts.append(ConsoleFormat.money(milliunits: price, currency: currency))
            }
            if let offer = payload?.offerType { parts.append("offer \(offer.rawValue)") }
            if let discount = payload?.offerDiscountType { parts.append("discount \(discount.rawValue)") }
            if let revoked = transaction.revocationDate {
                // The purchaser taking a member's subscription away is not a refund.
                let what = payload?.revocationType == .assignmentRevoke ? "assignment revoked" : "refunded"
                parts.append("\(what) \(ConsoleFormat.instant(revoked))")
            }
            add(transaction.purchaseDate ?? transaction.signedDate, "transaction", "purchase \(transaction.transactionId)",
                parts.joined(separator: " · "))
            for request in try await repository.consumptionRequests(transactionId: transaction.transactionId) {
                add(request.requestedAt, "refund", "refund request (\(request.reason ?? "no reason"))",
                    "\(request.state.rawValue)\(request.body.map { " · sent \($0)" } ?? "")\(request.outcome.map { " · Apple: \($0)" } ?? "")",
                    links.refundRequest(request.id))
            }
            if let facts = try await repository.transactionFacts(transactionId: transaction.transactionId) {
                add(facts.updatedAt, "facts", "facts reported for \(transaction.transactionId)",
                    [facts.deliveryStatus.map { "delivery \($0)" }, facts.consumptionPercentage.map { "consumed \($0 / 1000)%" }]
                        .compactMap { $0 }.joined(separator: " · "))
            }
        }
        let decisions = try await repository.offerDecisions(originalTransactionId: otid, limit: 50)
        for decision in decisions {
            let result = decision.heldOut ? "held out (would get \(decision.offerId ?? "nothing"))" : decision.offerId.map { "offer \($0)" } ?? "no offer"
            add(decision.decidedAt, "decision", "decision on \(decision.trigger)",
                "\(result) · rule \(decision.ruleId ?? "none")\(decision.outcome.map { " · \($0)" } ?? "")",
                links.offerDecision(decision.id))
        }
        var keys = [ConsentKey.originalTransactionId(otid)]
        if let token = record.appAccountToken { keys.append(.appAccountToken(token)) }
        let consents = try await repository.consents(keys: keys, limit: 50)
        for consent in consents {
            add(consent.at, "consent", consent.consented ? "consented" : "refused consent",
                "\(consent.source)\(consent.termsVersion.map { " · terms \($0)" } ?? "")")
        }
        let pending = try await repository.pendingOffer(originalTransactionId: otid, now: now)
        return Customer(
            originalTransactionId: otid, appAccountToken: record.appAccountToken ?? "none",
            history: record.historySyncedAt.map { "read in full \(ConsoleFormat.instant($0))" } ?? "not read in full yet",
            pending: pending.map { "\($0.offerId ?? "") until \(ConsoleFormat.instant($0.expiresAt ?? 0))" } ?? "none",
            consent: consents.first.map { $0.consented ? "consented (\($0.source))" : "refused (\($0.source))" } ?? "no answer recorded",
            events: events.sorted { $0.millis > $1.millis })
    }
}

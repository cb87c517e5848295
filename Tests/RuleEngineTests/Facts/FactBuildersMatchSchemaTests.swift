import AppStoreServer
import Foundation
import RuleEngine
import Testing

/// The schema the rule checker uses is derived from the typed fact records; this pins that the
/// builders from Apple's payloads (``SubscriptionFacts``, ``ConsumptionFacts``) fill exactly those
/// records: every field a builder writes is declared (no fact the checker would refuse), every
/// declared field is written by some builder from payloads that carry everything (no fact a rule
/// could name but never see), and every value types strictly as declared.
@Suite("Facts: the builders match the schema")
struct FactBuildersMatchSchemaTests {
    static func date(_ day: Int) -> Date { Date(appStoreMilliseconds: 1_767_225_600_000 + Int64(day) * 86_400_000) }

    /// A transaction with every field the facts read.
    static func transaction(_ id: String, _ otid: String, day: Int, offer: OfferType? = nil, revoked: RevocationType? = nil)
        -> JWSTransactionDecodedPayload {
        var transaction = JWSTransactionDecodedPayload()
        transaction.transactionId = id
        transaction.originalTransactionId = otid
        transaction.productId = "com.example.monthly"
        transaction.subscriptionGroupIdentifier = "21482345"
        transaction.type = .autoRenewable
        transaction.price = 7_990
        transaction.currency = "USD"
        transaction.storefront = "USA"
        transaction.purchaseDate = date(day)
        transaction.expiresDate = date(day + 30)
        if let offer {
            transaction.offerType = offer
            transaction.offerIdentifier = "offer-\(id)"
            transaction.offerDiscountType = .payAsYouGo
        }
        if let revoked {
            transaction.revocationDate = date(day + 2)
            transaction.revocationType = revoked
            transaction.revocationPercentage = 50_000
        }
        return transaction
    }

    static let history = [
        transaction("1", "1", day: 0, revoked: .refundProrated),
        transaction("2", "1", day: 30),
        committed(transaction("3", "1", day: 60, offer: .promotionalOffer)),
    ]

    /// `transaction` billed monthly in the third month of a 12-month commitment.
    static func committed(_ transaction: JWSTransactionDecodedPayload) -> JWSTransactionDecodedPayload {
        var transaction = transaction
        transaction.billingPlanType = .monthly
        transaction.commitmentInfo = TransactionCommitmentInfo(
            billingPeriodNumber: 3, commitmentExpiresDate: date(300), commitmentPrice: 95_880, totalBillingPeriods: 12)
        return transaction
    }

    static var offerFacts: SubscriptionFacts {
        var renewal = JWSRenewalInfoDecodedPayload()
        renewal.originalTransactionId = "1"
        renewal.productId = "com.example.monthly"
        renewal.autoRenewStatus = .off
        renewal.expirationIntent = .customerCancelled
        renewal.renewalPrice = 7_990
        renewal.currency = "USD"
        renewal.isInBillingRetryPeriod = false
        renewal.eligibleWinBackOfferIds = ["win-back"]
        return SubscriptionFacts(
            event: .init(type: .didChangeRenewalStatus, subtype: .autoRenewDisabled, environment: .production, signedDate: date(70)),
            originalTransactionId: "1", transactions: history, renewalInfo: renewal, attributes: .object([:]),
            decisions: [.init(offerId: "offer-3", ruleId: "rule", date: date(59))], historyComplete: true)
    }

    static var refundFacts: ConsumptionFacts {
        ConsumptionFacts(
            event: .init(type: .consumptionRequest, subtype: nil, environment: .production, signedDate: date(70)),
            reason: .unintendedPurchase, purchase: transaction("3", "1", day: 60, offer: .promotionalOffer), transactions: history,
            usage: .init(deliveryStatus: .delivered, consumptionPercentage: 50_000, sampleContentProvided: true,
                         sessionsSincePurchase: 3, consented: true),
            attributes: .object([:]))
    }

    /// The field names written at each record path (`customer.transactions[]`), over every element.
    static func written(_ value: JSONValue, at path: String, into result: inout [String: Set<String>]) {
        switch value {
        case .object(let object):
            result[path, default: []].formUnion(object.keys)
            for (name, child) in object {
                written(child, at: path.isEmpty ? name : path + "." + name, into: &result)
            }
        case .array(let items):
            for item in items { written(item, at: path + "[]", into: &result) }
        default: break
        }
    }

    /// The field names declared at each record path, and the record's type name.
    static func declared(_ record: RuleRecord, at path: String, into result: inout [String: Set<String>]) {
        result[path] = Set(record.fields.map(\.name))
        for field in record.fields {
            let child = path.isEmpty ? field.name : path + "." + field.name
            switch field.type.unwrapped {
            case .record(let nested): declared(nested, at: child, into: &result)
            case .list(.record(let nested)): declared(nested, at: child + "[]", into: &result)
            default: break
            }
        }
    }

    @Test("every written field is declared, every declared field is written, and the values type strictly")
    func buildersMatchSchema() throws {
        var realtime = Self.offerFacts
        realtime.event = .init(type: .realtimeRequest, subtype: nil, environment: .production, signedDate: Self.date(70), userLocale: "en-US")
        let documents = [Self.offerFacts.document, Self.refundFacts.document, realtime.document]
        var written: [String: Set<String>] = [:]
        for document in documents {
            Self.written(document, at: "", into: &written)
            // Typing strictly: a wrong type or an enum value the rules do not know would throw.
            _ = try Facts(FactData(document), schema: .standard, strictEnums: true)
        }
        var declared: [String: Set<String>] = [:]
        Self.declared(FactSchema.standard.document, at: "", into: &declared)
        // Money values and the per-currency tables are objects too, but no records.
        let records = written.filter { path, _ in declared[path] != nil }
        for (path, names) in records {
            #expect(names.subtracting(declared[path] ?? []).isEmpty, "\(path) writes undeclared \(names.subtracting(declared[path] ?? []))")
        }
        for (path, names) in declared where !names.isEmpty {
            let missing = names.subtracting(written[path] ?? [])
            #expect(missing.isEmpty, "no builder writes \(path).\(missing.sorted())")
        }
    }

    @Test("each record declares a name once, and the schema is exactly the typed records' declaration")
    func recordsDeclareOnce() {
        for record in FactSchema.standard.records {
            #expect(Set(record.fields.map(\.name)).count == record.fields.count, "\(record.name)")
        }
        #expect(FactSchema.standard.document == FactDocument.ruleRecord())
        #expect(FactSchema.standard.type(at: "customer.transactions") == .list(.record(FactDocument.Transaction.ruleRecord())))
        #expect(FactSchema.standard.type(at: "subscription.expirationIntent") == .optional(.enumeration(.expirationIntent)))
        #expect(FactSchema.standard.type(at: "event.subtype") == .enumeration(.subtype))
    }
}

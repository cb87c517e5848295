import AppStoreServer
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Generated facts documents, for measuring a bundle (`verdict bench rules`) and seeding a
/// decision history to replay (`verdict bench replay`): customers with transaction histories,
/// spread over the events offer and refund rules decide (auto-renew turned off, expiry,
/// consumption requests), four currencies, a monthly and an annual subscription and a
/// consumable, and full-price, free-trial, pay-as-you-go and promotional transactions. One
/// customer in ten is a team purchaser of 5 to 20 seats (some renewing with fewer); the others
/// hold one seat. Deterministic (a fixed linear congruential generator), so runs are comparable.
/// The app's product, group and offer identifiers are the caller's.
public struct SyntheticFacts: Sendable {
    /// The app the generated customers bought from.
    private struct Catalog {
        var monthlyProductId, annualProductId, consumableProductId, subscriptionGroup: String
        var winBackOfferIds: [String]
    }

    private let catalog: Catalog
    /// Transactions per customer history.
    public let historyLength: Int

    /// Customers with `historyLength`-transaction histories of an app selling the subscriptions
    /// `monthlyProductId` and `annualProductId` (of `subscriptionGroup`) and the consumable
    /// `consumableProductId`; half of them are eligible for the win-back offers `winBackOfferIds`.
    public init(historyLength: Int, monthlyProductId: String, annualProductId: String, consumableProductId: String,
                subscriptionGroup: String, winBackOfferIds: [String]) {
        self.historyLength = historyLength
        catalog = Catalog(monthlyProductId: monthlyProductId, annualProductId: annualProductId,
                          consumableProductId: consumableProductId, subscriptionGroup: subscriptionGroup,
                          winBackOfferIds: winBackOfferIds)
    }

    private struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    /// Price lists per currency, in milliunits: (monthly, annual, consumable).
    private static let prices: [(currency: String, monthly: Int64, annual: Int64, credits: Int64)] = [
        ("USD", 7_990, 59_990, 4_990), ("EUR", 7_990, 59_990, 4_990),
        ("GBP", 6_990, 49_990, 4_490), ("JPY", 1_200_000, 8_800_000, 700_000),
    ]

    /// The notification a generated decision is made on.
    public enum Event: Sendable, CaseIterable {
        /// `DID_CHANGE_RENEWAL_STATUS` / `AUTO_RENEW_DISABLED` (offers).
        case autoRenewDisabled
        /// `EXPIRED` / `VOLUNTARY` (offers, win-back).
        case expired
        /// `CONSUMPTION_REQUEST` for a consumable (refunds).
        case consumptionRequest
    }

    /// `count` facts documents typed against `schema`.
    public func make(count: Int, schema: FactSchema) throws -> [Facts] {
        var generator = Generator(state: 0x5EED)
        return try (0..<count).map { index in
            let signed: Int64 = 1_797_336_000_000 + Int64(index) * 60_000  // 2026-12-15T12:00Z onwards
            return try Facts(FactData(document(index, &generator, history: historyLength, signed: signed, event: nil).json),
                             schema: schema)
        }
    }

    /// The facts of one decision for customer number `customer` (originalTransactionId
    /// `20000000000 + customer`) on `event` at `signedDate` (UNIX milliseconds). The customer stays
    /// the same person across calls — currency, plan, how they paid, refunds, storefront, win-back
    /// eligibility, and a history of 1…`historyLength` monthly or yearly payments ending at
    /// `signedDate` — so repeated decisions for them meet the same holdout bucket, split and caps.
    public func document(customer: Int, signedDate: Int64, event: Event) -> FactDocument {
        var generator = Generator(state: Self.mix(UInt64(customer) &+ 0x5EED))
        let history = 1 + Int(Self.mix(UInt64(customer) ^ 0xB15_7051) % UInt64(max(1, historyLength)))
        return document(customer, &generator, history: history, signed: signedDate, event: event)
    }

    /// SplitMix64's finalizer: well-spread, deterministic 64 bits from a counter (for generators
    /// that pick among these customers).
    public static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// One customer's facts: the draws come in a fixed order, so a generator state gives one
    /// document. `event` nil: drawn (12 in 20 auto-renew off, 5 expired, 3 consumption requests).
    private func document(_ index: Int, _ random: inout Generator, history historyLength: Int, signed: Int64, event: Event?)
        -> FactDocument {
        let price = Self.prices[random.next(Self.prices.count)]
        let isAnnual = random.next(3) == 0
        let product = isAnnual ? catalog.annualProductId : catalog.monthlyProductId
        let listPrice = FactDocument.Amount(milliunits: isAnnual ? price.annual : price.monthly, currency: price.currency)
        let day: Int64 = 86_400_000
        // Seats come from the customer's number, not the generator, so every other draw stays as it was.
        let team = Self.mix(UInt64(index) ^ 0x5EA7_5EA7)
        let seats: Int64 = team % 10 == 0 ? 5 + Int64((team >> 8) % 16) : 1
        let renewalSeats = seats > 1 && (team >> 16) % 3 == 0 ? seats - 2 : seats
        var transactions: [FactDocument.Transaction] = []
        transactions.reserveCapacity(historyLength)
        let style = random.next(4)  // 0 full price, 1 trial then full, 2 only discounted, 3 mixed
        for offset in 0..<historyLength {
            let isConsumable = offset % 17 == 5
            var entry = FactDocument.Transaction(
                productId: isConsumable ? catalog.consumableProductId : product, price: listPrice, currency: price.currency,
                purchaseDate: Self.date(signed - Int64(offset + 1) * 30 * day), ownership: .purchased)
            let discounted = style == 2 || (style == 1 && offset == historyLength - 1) || (style == 3 && random.next(3) == 0)
            if discounted {
                let trial = random.next(2) == 0
                entry.offer = FactDocument.Offer(type: trial ? .introductoryOffer : .promotionalOffer, identifier: nil,
                                                 discountType: trial ? .freeTrial : .payAsYouGo)
                entry.price = FactDocument.Amount(milliunits: trial ? 0 : 990, currency: price.currency)
            }
            let entrySeats: Int64 = isConsumable ? 1 : seats
            entry.seats = entrySeats
            entry.amount = entry.price.map { Self.times($0, entrySeats) }
            transactions.append(entry)
        }
        let refunds: [FactDocument.Refund] = random.next(20) == 0
            ? [.init(productId: product, price: listPrice, date: Self.date(signed - Int64(random.next(200)) * day),
                     revocationType: .refundFull, seats: seats)]
            : []
        let kind = random.next(20)
        var facts = FactDocument(event: .init(type: .consumptionRequest, subtype: nil, environment: .production,
                                              signedDate: Self.date(signed)))
        switch event ?? (kind < 12 ? .autoRenewDisabled : kind < 17 ? .expired : .consumptionRequest) {
        case .autoRenewDisabled:
            facts.event.type = .didChangeRenewalStatus
            facts.event.subtype = .autoRenewDisabled
        case .expired:
            facts.event.type = .expired
            facts.event.subtype = .voluntary
        case .consumptionRequest:
            let reasons: [ConsumptionRequestReason] = [.unintendedPurchase, .unsatisfiedWithPurchase, .other]
            facts.event.consumptionRequestReason = reasons[random.next(3)]
            facts.purchase = FactDocument.Purchase(
                transactionId: "3\(index)", originalTransactionId: "3\(index)", productId: catalog.consumableProductId,
                productType: .consumable, price: FactDocument.Amount(milliunits: price.credits, currency: price.currency),
                currency: price.currency, purchaseDate: Self.date(signed - 3 * day), age: 3 * day, seats: 1,
                amount: FactDocument.Amount(milliunits: price.credits, currency: price.currency), ownership: .purchased)
            let percent = Int64(random.next(101))
            facts.usage = FactDocument.Usage(deliveryStatus: .delivered, consumptionPercentage: percent * 1000,
                                             sessionsSincePurchase: Int64(random.next(10)), consented: true)
        }
        let storefront = ["USA", "DEU", "GBR", "JPN"][random.next(4)]
        let billingRetry = random.next(30) == 0
        let winBack = random.next(2) == 0 ? catalog.winBackOfferIds : []
        facts.subscription = FactDocument.Subscription(
            originalTransactionId: String(20_000_000_000 + index), productId: product, group: catalog.subscriptionGroup,
            price: listPrice, renewalPrice: listPrice, currency: price.currency, storefront: storefront, autoRenewStatus: .off,
            expirationIntent: .customerCancelled, isInBillingRetry: billingRetry, eligibleWinBackOfferIds: winBack,
            recentSubscriptionStartDate: Self.date(signed - Int64(historyLength) * 30 * day),
            tenure: Int64(random.next(900)) * day, paidPeriods: Int64(random.next(60)), seats: seats,
            amount: Self.times(listPrice, seats), renewalSeats: renewalSeats, renewalAmount: Self.times(listPrice, renewalSeats),
            ownership: .purchased, billingPlan: .billedUpfront)
        facts.customer = FactDocument.Customer(
            transactions: transactions, refunds: refunds, lifetimePurchased: Self.lifetime(transactions.compactMap(\.amount)),
            lifetimeRefunded: Self.lifetime(refunds.compactMap { refund in refund.price.map { Self.times($0, refund.seats ?? 1) } }),
            attributes: .object(["exportsLast30Days": .integer(Int64(random.next(40)))]))
        return facts
    }

    private static func date(_ milliseconds: Int64) -> Date { Date(appStoreMilliseconds: milliseconds) }

    /// `price` for `seats` seats (generated prices are small: no overflow).
    private static func times(_ price: FactDocument.Amount, _ seats: Int64) -> FactDocument.Amount {
        FactDocument.Amount(milliunits: price.milliunits * seats, currency: price.currency)
    }

    /// `customer.lifetimePurchased` / `lifetimeRefunded` of generated entries: their non-zero
    /// prices summed per currency, as the builders compute them.
    private static func lifetime(_ prices: [FactDocument.Amount]) -> [String: FactDocument.Amount] {
        LifetimeMoney.perCurrency(prices.filter { $0.milliunits > 0 }.map { ($0.currency, $0.milliunits) })
    }
}

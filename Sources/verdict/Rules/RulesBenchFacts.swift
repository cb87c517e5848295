import RuleEngine

/// Generated facts documents for `verdict bench rules`: customers of the shipped "Lumen" bundle
/// with 200-transaction histories, spread over the event types the bundle decides
/// (auto-renew turned off, expiry, consumption requests), four currencies, both subscription
/// products, and full-price, free-trial, pay-as-you-go and promotional transactions.
/// Deterministic (a fixed linear congruential generator), so runs are comparable.
struct RulesBenchFacts {
    /// Transactions per customer history.
    let historyLength: Int

    private struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    /// Price lists per currency: (monthly, annual, credits) as decimal text.
    private static let prices: [(currency: String, monthly: String, annual: String, credits: String)] = [
        ("USD", "7.99", "59.99", "4.99"), ("EUR", "7.99", "59.99", "4.99"),
        ("GBP", "6.99", "49.99", "4.49"), ("JPY", "1200", "8800", "700"),
    ]
    private static let monthly = "com.lumen.pro.monthly"
    private static let annual = "com.lumen.pro.annual"

    /// `count` facts documents typed against `schema`.
    func make(count: Int, schema: FactSchema) throws -> [Facts] {
        var generator = Generator(state: 0x5EED)
        return try (0..<count).map { index in try Facts(document(index, &generator), schema: schema) }
    }

    private func document(_ index: Int, _ random: inout Generator) -> FactData {
        let price = Self.prices[random.next(Self.prices.count)]
        let isAnnual = random.next(3) == 0
        let product = isAnnual ? Self.annual : Self.monthly
        let listPrice = isAnnual ? price.annual : price.monthly
        let signed: Int64 = 1_797_336_000_000 + Int64(index) * 60_000  // 2026-12-15T12:00Z onwards
        let day: Int64 = 86_400_000
        var transactions: [FactData] = []
        transactions.reserveCapacity(historyLength)
        let style = random.next(4)  // 0 full price, 1 trial then full, 2 only discounted, 3 mixed
        for offset in 0..<historyLength {
            var entry: [String: FactData] = [
                "productId": .string(offset % 17 == 5 ? "com.lumen.credits.100" : product),
                "currency": .string(price.currency),
                "purchaseDate": .int(signed - Int64(offset + 1) * 30 * day),
            ]
            let discounted = style == 2 || (style == 1 && offset == historyLength - 1) || (style == 3 && random.next(3) == 0)
            if discounted {
                let trial = random.next(2) == 0
                entry["offerType"] = .string(trial ? "INTRODUCTORY" : "PROMOTIONAL")
                entry["offerDiscountType"] = .string(trial ? "FREE_TRIAL" : "PAY_AS_YOU_GO")
                entry["price"] = .string((trial ? "0" : "0.99") + " " + price.currency)
            } else {
                entry["price"] = .string(listPrice + " " + price.currency)
            }
            transactions.append(.object(entry))
        }
        let refunds: [FactData] = random.next(20) == 0
            ? [.object(["productId": .string(product), "price": .string(listPrice + " " + price.currency),
                        "date": .int(signed - Int64(random.next(200)) * day), "revocationType": .string("REFUND_FULL")])]
            : []
        let kind = random.next(20)
        var event: [String: FactData] = ["environment": .string("PRODUCTION"), "signedDate": .int(signed)]
        var root: [String: FactData] = [:]
        if kind < 12 {
            event["type"] = .string("DID_CHANGE_RENEWAL_STATUS")
            event["subtype"] = .string("AUTO_RENEW_DISABLED")
        } else if kind < 17 {
            event["type"] = .string("EXPIRED")
            event["subtype"] = .string("VOLUNTARY")
        } else {
            event["type"] = .string("CONSUMPTION_REQUEST")
            event["subtype"] = .string("NONE")
            event["consumptionRequestReason"] = .string(["UNINTENDED_PURCHASE", "UNSATISFIED_WITH_PURCHASE", "OTHER"][random.next(3)])
            root["purchase"] = .object([
                "transactionId": .string("3\(index)"), "originalTransactionId": .string("3\(index)"),
                "productId": .string("com.lumen.credits.100"), "productType": .string("CONSUMABLE"),
                "price": .string(price.credits + " " + price.currency), "currency": .string(price.currency),
                "purchaseDate": .int(signed - 3 * day), "age": .int(3 * day),
            ])
            root["usage"] = .object([
                "deliveryStatus": .string("DELIVERED"), "consumptionPercentage": .int(Int64(random.next(101))),
                "consented": .bool(true), "sessionsSincePurchase": .int(Int64(random.next(10))),
            ])
        }
        root["event"] = .object(event)
        root["subscription"] = .object([
            "originalTransactionId": .string(String(20_000_000_000 + index)), "productId": .string(product),
            "group": .string("21482345"), "price": .string(listPrice + " " + price.currency),
            "renewalPrice": .string(listPrice + " " + price.currency), "currency": .string(price.currency),
            "storefront": .string(["USA", "DEU", "GBR", "JPN"][random.next(4)]), "autoRenewStatus": .string("OFF"),
            "expirationIntent": .string("CUSTOMER_CANCELLED"), "isInBillingRetry": .bool(random.next(30) == 0),
            "eligibleWinBackOfferIds": .list(random.next(2) == 0
                ? [.string("lumen-winback-monthly-2free"), .string("lumen-winback-monthly-50off")] : []),
            "recentSubscriptionStartDate": .int(signed - Int64(historyLength) * 30 * day),
            "tenure": .int(Int64(random.next(900)) * day), "paidPeriods": .int(Int64(random.next(60))),
        ])
        root["customer"] = .object([
            "lifetimePurchased": Self.perCurrency(transactions), "lifetimeRefunded": Self.perCurrency(refunds),
            "transactions": .list(transactions), "refunds": .list(refunds), "offersRedeemed": .list([]),
            "decisions": .list([]), "attributes": .object(["exportsLast30Days": .int(Int64(random.next(40)))]),
        ])
        return .object(root)
    }

    /// `customer.lifetimePurchased` / `lifetimeRefunded` of generated entries: their non-zero
    /// `price`s summed per currency, as the service computes them.
    private static func perCurrency(_ entries: [FactData]) -> FactData {
        var totals: [String: Int64] = [:]
        for case .object(let entry) in entries {
            guard case .string(let text)? = entry["price"], let money = Money(parsing: text), money.milliunits > 0,
                  let currency = text.split(separator: " ").last.map(String.init)
            else { continue }
            totals[currency, default: 0] += money.milliunits
        }
        var table: [String: FactData] = [:]
        for (currency, milliunits) in totals {
            table[currency] = .string(Money(milliunits: milliunits, currency: currency).description)
        }
        return .object(table)
    }
}

import AppStoreServer

/// `customer.lifetimePurchased` and `customer.lifetimeRefunded`: what a customer paid and was
/// refunded, one total per ISO 4217 currency — never added across currencies. Free periods and
/// zero prices are not purchases; a prorated refund counts its `revocationPercentage` share of
/// the price; family-sharing revocations are not refunds. Totals saturate at `Int64.max` milliunits
/// instead of overflowing (a signed price can be any `Int64`). Pure.
enum LifetimeMoney {
    /// Per currency, everything `transactions` cost.
    static func purchased(_ transactions: [JWSTransactionDecodedPayload]) -> [String: FactDocument.Amount] {
        perCurrency(transactions.compactMap(paid))
    }

    /// The same, of what was refunded.
    static func refunded(_ transactions: [JWSTransactionDecodedPayload]) -> [String: FactDocument.Amount] {
        perCurrency(transactions.compactMap(refund))
    }

    /// What a transaction cost, when it cost something.
    static func paid(_ transaction: JWSTransactionDecodedPayload) -> (currency: String, milliunits: Int64)? {
        guard let currency = transaction.currency, let price = transaction.price, price > 0 else { return nil }
        return (currency, price)
    }

    /// What a refunded transaction gave back.
    static func refund(_ transaction: JWSTransactionDecodedPayload) -> (currency: String, milliunits: Int64)? {
        guard let (currency, price) = paid(transaction), transaction.revocationDate != nil,
              let type = transaction.factRevocationType, type == .refundFull || type == .refundProrated
        else { return nil }
        guard type == .refundProrated, let share = transaction.revocationPercentage else { return (currency, price) }
        let product = price.multipliedFullWidth(by: Int64(min(max(share, 0), 100_000)))
        return (currency, Int64(100_000).dividingFullWidth(product).quotient)
    }

    static func perCurrency(_ amounts: [(currency: String, milliunits: Int64)]) -> [String: FactDocument.Amount] {
        var totals: [String: Int64] = [:]
        for amount in amounts {
            let (sum, overflow) = totals[amount.currency, default: 0].addingReportingOverflow(amount.milliunits)
            totals[amount.currency] = overflow ? .max : sum
        }
        return totals.reduce(into: [:]) { $0[$1.key] = FactDocument.Amount(milliunits: $1.value, currency: $1.key) }
    }
}

import AppStoreServer

/// `customer.lifetimePurchased` and `customer.lifetimeRefunded`: what a customer paid and was
/// refunded, one total per ISO 4217 currency — never added across currencies. What a transaction
/// paid is what it charged (`chargedAmount`: a multiseat purchase's price tiers, never its
/// per-seat `price` × seats); free periods and zero prices are not purchases; a member's copy
/// (`ASSIGNED`) of a group purchaser's transaction is the purchaser's money, never the member's.
/// A prorated refund counts its `revocationPercentage` share of the charge; family-sharing and
/// assignment revocations are not refunds. A seat refund's amount is an estimate: Apple does not
/// say which tier's seats it took back, so it counts the revoked seats at the transaction's
/// average price per seat (`price`), at most the charge. Totals saturate at `Int64.max` milliunits
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

    /// What a transaction cost this customer, when it cost something.
    static func paid(_ transaction: JWSTransactionDecodedPayload) -> (currency: String, milliunits: Int64)? {
        guard transaction.inAppOwnershipType != .assigned, let currency = transaction.currency,
              let charged = transaction.chargedAmount, charged > 0
        else { return nil }
        return (currency, charged)
    }

    /// What a refund of the transaction gave back (an estimate for a seat refund).
    static func refund(_ transaction: JWSTransactionDecodedPayload) -> (currency: String, milliunits: Int64)? {
        guard let type = transaction.customerRefundType, let (currency, charged) = paid(transaction) else { return nil }
        switch type {
        case .refundSeats:
            guard let price = transaction.price, price > 0, let seats = transaction.resolvedRevokedSeatQuantity else { return nil }
            let (estimate, overflow) = price.multipliedReportingOverflow(by: Int64(seats))
            return (currency, overflow ? charged : min(estimate, charged))
        case .refundProrated:
            guard let share = transaction.revocationPercentage else { return (currency, charged) }
            let product = charged.multipliedFullWidth(by: Int64(min(max(share, 0), 100_000)))
            return (currency, Int64(100_000).dividingFullWidth(product).quotient)
        default:
            return (currency, charged)
        }
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

import AppStoreServer
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The current billing period of a subscription, read from its transactions: its seats, what it
/// was charged and its commitment (`subscription.seats`, `.amount`, `.commitment`), and the
/// number of periods paid. Pure; linear in the transactions.
///
/// A period can have several transactions: a purchaser who adds seats gets a seat-addition
/// transaction covering only the added seats, with the same `expiresDate` as the period's first
/// transaction, while a renewal starts a new period with a new `expiresDate`. So the period's
/// transactions are those that end when the latest one ends. Members of an Apple-hosted group get
/// copies of the purchaser's transactions (`ASSIGNED`) that repeat its seats and tiers; they are
/// left out of a purchaser's subscription, and only they make up a member's own (one whose latest
/// transaction is `ASSIGNED`). Transactions replaced by an upgrade (`isUpgraded`) are not part of it.
struct SubscriptionPeriod {
    /// The subscription's transactions as its holder sees them (a member's copies, or everything
    /// else), oldest purchase first.
    let history: [JWSTransactionDecodedPayload]
    /// The current period's transactions, oldest purchase first.
    let transactions: [JWSTransactionDecodedPayload]

    /// `chain`: the subscription's transactions, oldest purchase first.
    init(chain: [JWSTransactionDecodedPayload]) {
        let isMember = chain.last?.inAppOwnershipType == .assigned
        let history = chain.filter { ($0.inAppOwnershipType == .assigned) == isMember }
        self.history = history
        let notUpgraded = history.filter { $0.isUpgraded != true }
        // Only upgraded transactions stored (not yet the upgrade itself): they are what there is.
        let current = notUpgraded.isEmpty ? history : notUpgraded
        guard let end = current.last?.expiresDate else {
            transactions = current.last.map { [$0] } ?? []
            return
        }
        transactions = current.filter { $0.expiresDate == end }
    }

    /// The seats the period's transactions still cover; nil when one's seats are unknown or there
    /// is no transaction.
    var seats: Int64? {
        guard !transactions.isEmpty else { return nil }
        var total: Int64 = 0
        for transaction in transactions {
            guard let seats = transaction.factSeats else { return nil }
            total += seats
        }
        return total
    }

    /// What the period's transactions charged together; nil when one's charge is unknown, when
    /// they are in different currencies, or when the sum overflows.
    var amount: FactDocument.Amount? {
        guard let currency = transactions.first?.currency else { return nil }
        var total: Int64 = 0
        for transaction in transactions {
            guard transaction.currency == currency, let charged = transaction.chargedAmount else { return nil }
            let (sum, overflow) = total.addingReportingOverflow(charged)
            if overflow { return nil }
            total = sum
        }
        return FactDocument.Amount(milliunits: total, currency: currency)
    }

    /// Billing periods paid: every paid transaction of ``history`` but seat additions to a period
    /// already counted. A seat addition shares its period's end; the period's first transaction
    /// may carry `SEAT_ADDITION` too (Apple marks every transaction of such a period when it signs
    /// them again) or not (as first delivered, before the addition), so a `SEAT_ADDITION`
    /// transaction is skipped exactly when a paid transaction ending at the same time was counted.
    var paidPeriods: Int64 {
        var countedEnds: Set<Date> = []
        var count: Int64 = 0
        for transaction in history where transaction.isPaidPeriod {
            let end = transaction.expiresDate
            if transaction.resolvedAdditionalTransactionReason == .seatAddition, let end, countedEnds.contains(end) { continue }
            if let end { countedEnds.insert(end) }
            count += 1
        }
        return count
    }

    /// The commitment of the latest of the period's transactions that has one complete, with
    /// `renewal`'s auto-renew status for the commitment (else the subscription's, else false).
    func commitment(renewal: JWSRenewalInfoDecodedPayload?) -> FactDocument.Commitment? {
        guard let info = transactions.last(where: { $0.commitmentInfo != nil })?.commitmentInfo,
              let period = info.billingPeriodNumber, let periods = info.totalBillingPeriods, let endsAt = info.commitmentExpiresDate
        else { return nil }
        let status = renewal?.commitmentInfo?.commitmentAutoRenewStatus ?? renewal?.autoRenewStatus
        return FactDocument.Commitment(period: Int64(period), periods: Int64(periods), endsAt: endsAt, autoRenew: status == .on)
    }
}

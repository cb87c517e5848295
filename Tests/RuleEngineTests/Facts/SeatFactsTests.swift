import AppStoreServer
import Foundation
import RuleEngine
import Testing

/// The seat and money facts built from Apple's multiseat transactions: the period's seats and
/// charge, seat refunds, members' copies, and a single-seat subscription exactly as before.
@Suite("Facts: seats and what was paid")
struct SeatFactsTests {
    typealias Support = SeatFactsTestSupport

    /// Evaluates `condition` on the typed facts document of `facts`.
    private func holds(_ condition: String, _ facts: SubscriptionFacts) throws -> Bool {
        let typed = try Facts(FactData(facts.document), schema: .standard)
        let compiled = try ExpressionCompiler.compileCondition(condition, environment: CompileEnvironment())
        return try compiled.isTrue(EvaluationContext(facts: typed)).get()
    }

    @Test("the worked example: a purchase of 8 seats and an addition of 4 are one period of 12 seats, 101.88 USD")
    func workedExample() throws {
        let facts = Support.facts([Support.seatAddition, Support.purchase])
        let subscription = facts.subscription
        #expect(subscription.seats == 12)
        #expect(subscription.amount == Support.usd(101_880))
        // price keeps Apple's meaning: the latest transaction's average per seat.
        #expect(subscription.price == Support.usd(6_990))
        #expect(subscription.paidPeriods == 1)
        #expect(subscription.ownership == .purchased)
        #expect(subscription.billingPlan == .billedUpfront)
        #expect(subscription.commitment == nil)
        // No renewal info: the next renewal is the period again.
        #expect(subscription.renewalSeats == 12)
        #expect(subscription.renewalAmount == Support.usd(101_880))
        let customer = facts.customer
        #expect(customer.lifetimePurchased == ["USD": Support.usd(101_880)])
        #expect(customer.lifetimeRefunded.isEmpty)
        #expect(customer.transactions.map(\.seats) == [4, 8])
        #expect(customer.transactions.map(\.amount) == [Support.usd(27_960), Support.usd(73_920)])
        #expect(customer.transactions.map(\.price) == [Support.usd(6_990), Support.usd(9_240)])
        #expect(try holds("subscription.seats == 12 && subscription.amount == money('101.88 USD')", facts))
        #expect(try holds("customer.transactions.all(t, t.ownership == PURCHASED)", facts))
    }

    @Test("the purchase as first delivered (before the addition, without SEAT_ADDITION) and its addition are one paid period")
    func purchaseStoredBeforeItsAddition() {
        var firstDelivered = Support.purchase
        firstDelivered.additionalTransactionReason = nil
        let subscription = Support.facts([firstDelivered, Support.seatAddition]).subscription
        #expect(subscription.paidPeriods == 1)
        #expect(subscription.seats == 12)
        #expect(subscription.amount == Support.usd(101_880))
    }

    @Test("a renewal starts a new period: the old period's transactions are not counted")
    func renewalStartsAPeriod() {
        let renewal = Support.multiseat("7002", day: 365, ends: 730, seats: 10, price: 9_000, tiers: [(9_000, 10)])
        let subscription = Support.facts([Support.purchase, Support.seatAddition, renewal]).subscription
        #expect(subscription.seats == 10)
        #expect(subscription.amount == Support.usd(90_000))
        #expect(subscription.paidPeriods == 2)
    }

    @Test("a seat refund of 2 seats on (a): 10 seats, the amount unchanged, a REFUND_SEATS refund of 2 seats, 18.48 USD refunded (estimated)")
    func seatRefund() throws {
        var purchase = Support.purchase
        purchase.multiSeatInfo?.revokedSeatQuantity = 2
        purchase.signedDate = Support.date(16)
        let facts = Support.facts([purchase, Support.seatAddition])
        #expect(facts.subscription.seats == 10)
        #expect(facts.subscription.amount == Support.usd(101_880))
        let refunds = facts.customer.refunds
        #expect(refunds.count == 1)
        #expect(refunds.first?.revocationType == .refundSeats)
        #expect(refunds.first?.seats == 2)
        #expect(refunds.first?.date == Support.date(16))
        #expect(refunds.first?.price == Support.usd(9_240))
        // Apple does not say which tier's seats: 2 × the average price per seat.
        #expect(facts.customer.lifetimeRefunded == ["USD": Support.usd(18_480)])
        #expect(facts.customer.lifetimePurchased == ["USD": Support.usd(101_880)])
        // The transaction stays valid: no revocation date, the seats it still covers.
        let listed = try #require(facts.customer.transactions.first { $0.seats == 6 })
        #expect(listed.revocationType == .refundSeats)
        #expect(listed.revocationDate == nil)
        #expect(try holds("customer.refunds.exists(r, r.revocationType == REFUND_SEATS && r.seats == 2)", facts))
        #expect(try !holds("customer.refunds.exists(r, r.revocationType == REFUND_FULL)", facts))
        // The same revoked seats given at the top level of the transaction.
        var topLevel = Support.purchase
        topLevel.revokedSeatQuantity = 2
        #expect(Support.facts([topLevel, Support.seatAddition]).subscription.seats == 10)
    }

    @Test("a full refund of a multiseat transaction gives back its charge; a prorated one its share")
    func fullAndProratedRefunds() {
        var refunded = Support.seatAddition
        refunded.revocationDate = Support.date(15)
        refunded.revocationType = .refundFull
        var facts = Support.facts([Support.purchase, refunded])
        #expect(facts.subscription.seats == 8)
        #expect(facts.customer.lifetimeRefunded == ["USD": Support.usd(27_960)])
        #expect(facts.customer.refunds.first?.seats == 4)
        #expect(facts.customer.refunds.first?.revocationType == .refundFull)
        refunded.revocationType = .refundProrated
        refunded.revocationPercentage = 25_000
        facts = Support.facts([Support.purchase, refunded])
        #expect(facts.customer.lifetimeRefunded == ["USD": Support.usd(6_990)])
    }

    @Test("a member's copy (ASSIGNED) is never the member's money, and a removed member is not refunded")
    func memberCopies() {
        var removed = Support.memberCopy(of: Support.purchase, id: "9000", otid: "9000")
        removed.revocationDate = Support.date(18)
        removed.revocationType = .assignmentRevoke
        let copies = [Support.memberCopy(of: Support.purchase, id: "9001", otid: "9001"), removed]
        // The member's own subscription: the group's seats, the purchaser's charge.
        let member = Support.facts(copies, otid: "9001")
        #expect(member.subscription.ownership == .assigned)
        #expect(member.subscription.seats == 8)
        #expect(member.customer.lifetimePurchased.isEmpty)
        #expect(member.customer.lifetimeRefunded.isEmpty)
        #expect(member.customer.refunds.isEmpty)
        #expect(member.customer.transactions.map(\.ownership) == [.assigned, .assigned])
        #expect(member.customer.transactions.compactMap(\.revocationType) == [.assignmentRevoke])
        // Copies sharing the purchaser's customer are left out of the purchaser's period and money.
        let purchaser = Support.facts([Support.purchase, Support.seatAddition]
            + [Support.memberCopy(of: Support.purchase, id: "9002", otid: Support.otid)])
        #expect(purchaser.subscription.ownership == .purchased)
        #expect(purchaser.subscription.seats == 12)
        #expect(purchaser.subscription.amount == Support.usd(101_880))
        #expect(purchaser.customer.lifetimePurchased == ["USD": Support.usd(101_880)])
    }

    @Test("the next renewal's seats and charge come from the renewal info's tiers")
    func renewal() throws {
        var renewal = JWSRenewalInfoDecodedPayload()
        renewal.originalTransactionId = Support.otid
        renewal.productId = Support.product
        renewal.currency = "USD"
        renewal.renewalPrice = 9_240
        renewal.renewalQuantity = 8
        renewal.multiSeatInfo = RenewalMultiSeatInfo(renewalPriceTiers: Support.tiers([(9_990, 5), (7_990, 3)]))
        var facts = Support.facts([Support.purchase, Support.seatAddition], renewal: renewal)
        #expect(facts.subscription.renewalSeats == 8)
        #expect(facts.subscription.renewalAmount == Support.usd(73_920))
        #expect(facts.subscription.renewalPrice == Support.usd(9_240))
        #expect(try holds("subscription.renewalSeats < subscription.seats", facts))
        // Incomplete tiers: the charge is not guessed from the average.
        renewal.multiSeatInfo = RenewalMultiSeatInfo(renewalPriceTiers: [MultiSeatPriceTier(price: 9_990)])
        facts.renewalInfo = renewal
        #expect(facts.subscription.renewalAmount == nil)
        // No renewalQuantity: the seats renew as they are.
        renewal.renewalQuantity = nil
        facts.renewalInfo = renewal
        #expect(facts.subscription.renewalSeats == 12)
    }

    @Test("a monthly plan's commitment: period, periods, end and whether it renews")
    func commitment() throws {
        var month = Support.transaction("8000", day: 60, ends: 90, price: 5_490)
        month.billingPlanType = .monthly
        month.commitmentInfo = TransactionCommitmentInfo(
            billingPeriodNumber: 3, commitmentExpiresDate: Support.date(300), commitmentPrice: 65_880, totalBillingPeriods: 12)
        var renewal = JWSRenewalInfoDecodedPayload()
        renewal.autoRenewStatus = .off
        renewal.commitmentInfo = RenewalCommitmentInfo(commitmentAutoRenewStatus: .on)
        var facts = Support.facts([month], renewal: renewal)
        #expect(facts.subscription.billingPlan == .monthly)
        #expect(facts.subscription.commitment == FactDocument.Commitment(period: 3, periods: 12, endsAt: Support.date(300), autoRenew: true))
        #expect(try holds("has(subscription.commitment) && subscription.commitment.period < subscription.commitment.periods", facts))
        #expect(try holds("subscription.billingPlan == MONTHLY && has(subscription.commitment) && subscription.commitment.endsAt > now + days(200)", facts))
        // Without the commitment's own status: whether the subscription renews at all.
        renewal.commitmentInfo = nil
        facts.renewalInfo = renewal
        #expect(facts.subscription.commitment?.autoRenew == false)
        facts.renewalInfo = nil
        #expect(facts.subscription.commitment?.autoRenew == false)
        // An incomplete commitment is none.
        month.commitmentInfo?.totalBillingPeriods = nil
        #expect(Support.facts([month]).subscription.commitment == nil)
        #expect(try !holds("has(subscription.commitment)", Support.facts([month])))
    }

    @Test("a single-seat subscription: 1 seat, the amount is the price, nothing else changes")
    func singleSeat() throws {
        let first = Support.transaction("6000", day: 0, ends: 30, price: 7_990)
        let second = Support.transaction("6001", day: 30, ends: 60, price: 7_990)
        var renewal = JWSRenewalInfoDecodedPayload()
        renewal.renewalPrice = 8_990
        renewal.currency = "USD"
        let facts = Support.facts([first, second], renewal: renewal)
        let subscription = facts.subscription
        #expect(subscription.seats == 1)
        #expect(subscription.amount == Support.usd(7_990))
        #expect(subscription.price == Support.usd(7_990))
        #expect(subscription.renewalSeats == 1)
        #expect(subscription.renewalAmount == subscription.renewalPrice)
        #expect(subscription.paidPeriods == 2)
        #expect(subscription.ownership == .purchased)
        #expect(subscription.billingPlan == .billedUpfront)
        #expect(facts.customer.lifetimePurchased == ["USD": Support.usd(15_980)])
        #expect(facts.customer.transactions.allSatisfy { $0.seats == 1 && $0.amount == $0.price })
        // No ownership from Apple: the purchaser's own.
        var unmarked = first
        unmarked.inAppOwnershipType = nil
        #expect(Support.facts([unmarked]).subscription.ownership == .purchased)
        // A single-seat refund is still a full refund of one seat.
        var refunded = second
        refunded.revocationDate = Support.date(31)
        refunded.revocationType = .refundFull
        let refundFacts = Support.facts([first, refunded])
        #expect(refundFacts.customer.refunds.map(\.seats) == [1])
        #expect(refundFacts.customer.refunds.map(\.revocationType) == [.refundFull])
        #expect(refundFacts.customer.lifetimeRefunded == ["USD": Support.usd(7_990)])
    }

    @Test("a refund request's purchase says its seats, charge and ownership")
    func purchase() throws {
        let facts = ConsumptionFacts(
            event: .init(type: .consumptionRequest, subtype: nil, environment: .production, signedDate: Support.date(20)),
            reason: .unintendedPurchase, purchase: Support.seatAddition, transactions: [Support.purchase], usage: .init(consented: true))
        let purchase = try #require(facts.factDocument.purchase)
        #expect(purchase.seats == 4)
        #expect(purchase.amount == Support.usd(27_960))
        #expect(purchase.price == Support.usd(6_990))
        #expect(purchase.ownership == InAppOwnershipType.purchased)
        #expect(facts.factDocument.customer?.lifetimePurchased == ["USD": Support.usd(101_880)])
    }
}

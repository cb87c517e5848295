import AppStoreServer
import Foundation
import RuleEngine
import VerdictStorage

/// A generated history of stored decisions, for measuring replays (`verdict bench replay`):
/// offer decisions and consumption requests spread evenly over a period, each decided for real by
/// a bundle on ``SyntheticFacts`` of one of many returning customers, and stored exactly as the
/// service stores them (``OfferDecider`` and ``RefundDecider`` build the records: the decision with
/// its trace, the explanation, the facts). The caps are counted over the generated decisions in
/// time order, as a replay simulates them, so replaying the same bundle against what was recorded
/// changes nothing. Deterministic: the same plan gives the same records.
public struct SyntheticDecisionHistory: Sendable {
    /// What to generate.
    public struct Plan: Sendable {
        /// Decisions in all (offers and refunds).
        public var count: Int
        /// The period (UNIX milliseconds): the first decision at `since`, the others evenly up to `until`.
        public var since: Int64
        public var until: Int64
        /// Distinct customers (each decides about `count / customers` times).
        public var customers: Int
        /// Consumption requests per thousand decisions; the rest are offer decisions (7 in 10 on
        /// auto-renew turned off, 3 in 10 on expiry).
        public var refundsPerMille: Int

        public init(count: Int, since: Int64, until: Int64, customers: Int, refundsPerMille: Int = 100) {
            self.count = count
            self.since = since
            self.until = until
            self.customers = max(1, customers)
            self.refundsPerMille = refundsPerMille
        }

        /// When decision `index` is made.
        func decidedAt(_ index: Int) -> Int64 {
            since + Int64((Double(index) / Double(max(1, count)) * Double(until - since)).rounded(.down))
        }
    }

    /// Generated records, in `decidedAt` order within each kind.
    public struct Batch: Sendable {
        public var offers: [OfferDecisionRecord] = []
        public var refunds: [ConsumptionRequestRecord] = []
    }

    /// One generated decision before it is stored.
    private struct Draft: Sendable {
        var index: Int
        var decidedAt: Int64
        var key: UInt64
        var document: FactDocument
        var facts: JSONValue
        var typed: Facts?
        var decision: Decision?
        var customerUnit: String?
    }

    let bundle: RuleBundle
    let facts: SyntheticFacts
    let plan: Plan
    /// The grants of the decisions generated so far, at their `decidedAt`.
    private let limits = InMemoryLimits()

    public init(bundle: RuleBundle, facts: SyntheticFacts, plan: Plan) {
        self.bundle = bundle
        self.facts = facts
        self.plan = plan
    }

    /// The decisions `range` of the plan. Call with consecutive ranges, in order: each decision's
    /// caps count the offers granted before it. Facts are built and records encoded on every
    /// core; deciding is sequential.
    public func batch(_ range: Range<Int>) async throws -> Batch {
        var drafts = try await Array(range).concurrentMap { index in self.draft(index) }
        for position in drafts.indices { decide(&drafts[position]) }
        let records = try await drafts.concurrentMap { draft in try self.record(draft) }
        var batch = Batch()
        for record in records {
            switch record {
            case .offer(let offer)?: batch.offers.append(offer)
            case .refund(let refund)?: batch.refunds.append(refund)
            case nil: break
            }
        }
        return batch
    }

    private enum Record: Sendable {
        case offer(OfferDecisionRecord)
        case refund(ConsumptionRequestRecord)
    }

    /// Decision `index`: who, when, on what (no decision yet).
    private func draft(_ index: Int) -> Draft {
        let key = SyntheticFacts.mix(UInt64(index))
        let decidedAt = plan.decidedAt(index)
        let event: SyntheticFacts.Event = Int((key >> 20) % 1000) < plan.refundsPerMille
            ? .consumptionRequest : (key >> 40) % 10 < 7 ? .autoRenewDisabled : .expired
        // Apple signed the notification a moment before Verdict decided.
        var document = facts.document(
            customer: Int(key % UInt64(plan.customers)), signedDate: decidedAt - Int64((key >> 50) % 2_000), event: event)
        if event == .consumptionRequest {
            // Each request is about its own purchase of the consumable.
            document.purchase?.transactionId = String(40_000_000_000 + index)
            document.purchase?.originalTransactionId = String(40_000_000_000 + index)
        }
        let json = document.json
        return Draft(index: index, decidedAt: decidedAt, key: key, document: document, facts: json,
                     typed: try? Facts(FactData(json), schema: bundle.schema))
    }

    /// Decides a draft with the caps as the generated history has used them, and counts its grant.
    private func decide(_ draft: inout Draft) {
        guard let typed = draft.typed else { return }
        let signed = draft.document.event.signedDate.appStoreMilliseconds
        let decision = bundle.decide(typed, now: signed, limits: LimitsAt(limits: limits, instant: draft.decidedAt))
        draft.decision = decision
        draft.customerUnit = bundle.customerUnit(typed, now: signed)
        guard let offer = decision.offer, !decision.heldOut else { return }
        limits.record(.offer(offer.id), at: draft.decidedAt)
        if let unit = bundle.customerUnit(typed, now: decision.now?.millis) {
            limits.record(.customer(unit), at: draft.decidedAt)
        }
    }

    /// The stored record of a decided draft (nil when its section did not apply, as the service
    /// then stores nothing), with an outcome for most.
    private func record(_ draft: Draft) throws -> Record? {
        guard let decision = draft.decision else { return nil }
        let id = Self.uuid(draft.index)
        let notification = Self.uuid(draft.index, variant: 0xA)
        let signed = draft.document.event.signedDate.appStoreMilliseconds
        let roll = Int((draft.key >> 8) % 10)
        if draft.document.event.type == .consumptionRequest {
            guard decision.section == .refunds, let purchase = draft.document.purchase,
                  let transactionId = purchase.transactionId else { return nil }
            let request = RefundDecider.Request(
                notificationUUID: notification, transactionId: transactionId,
                originalTransactionId: purchase.originalTransactionId ?? transactionId, appAccountToken: nil,
                environment: "Production", reason: draft.document.event.consumptionRequestReason?.rawValue,
                requestedAt: signed, productType: purchase.productType, reported: nil, consent: nil,
                basis: .assumed, historyComplete: true)
            var record = try RefundDecider.record(decision, facts: draft.facts, for: request, bundle: bundle, id: id,
                                                  decidedAt: draft.decidedAt)
            if record.state == .pending {
                // Sent long ago; Apple answered most.
                record.state = .sent
                record.sentAt = draft.decidedAt + 1_000
                record.outcome = roll < 4 ? "REFUND" : roll < 8 ? "REFUND_DECLINED" : nil
            }
            record.outcomeAt = record.outcome.map { _ in draft.decidedAt + 7 * 86_400_000 }
            return .refund(record)
        }
        guard decision.section == .offers else { return nil }
        var record = try OfferDecider.record(
            decision, facts: draft.facts, productId: draft.document.subscription?.productId, historyComplete: true,
            bundle: bundle, id: id, originalTransactionId: draft.document.subscription?.originalTransactionId ?? id,
            notificationUUID: notification,
            trigger: draft.document.event.type == .expired ? "EXPIRED" : "AUTO_RENEW_DISABLED",
            customerUnit: draft.customerUnit, decidedAt: draft.decidedAt)
        if record.offerId != nil, !record.heldOut {
            record.outcome = roll < 3 ? "redeemed" : roll < 6 ? "retained" : nil
        } else {
            record.outcome = roll < 4 ? "retained" : nil
        }
        record.outcomeAt = record.outcome.map { _ in draft.decidedAt + 3 * 86_400_000 }
        return .offer(record)
    }

    /// A UUID-shaped id made of the decision's number, so that generated ids sort like their decisions.
    static func uuid(_ index: Int, variant: Int = 0) -> String {
        let hex = String(index, radix: 16)
        let tail = String(repeating: "0", count: max(0, 12 - hex.count)) + hex
        return "00000000-0000-4000-\(String(8 + variant % 8, radix: 16))000-\(tail)"
    }
}

/// Limits whose windows end at a decision's `decidedAt`, as a replay counts them (not at the
/// notification's `signedDate`, the `now` the engine passes).
private struct LimitsAt: LimitsPort {
    let limits: InMemoryLimits
    let instant: Int64

    func grantedCount(_ scope: LimitScope, window: Int64, now: Int64) -> Int {
        limits.grantedCount(scope, window: window, now: instant)
    }
}

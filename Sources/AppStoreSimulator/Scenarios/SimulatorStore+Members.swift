import AppStoreServer
import Foundation

/// Members of a multiseat group with Apple-hosted invitations (`APPLE`): each member is a customer
/// of their own with an `ASSIGNED` subscription — their own original transaction id, transactions
/// that repeat the group's seats and price tiers — which the API serves like any other (history,
/// statuses, transaction info). A member's transaction repeats the seats of the group purchaser's
/// whole current period (every transaction's seats and tiers, equal prices together) as of when it
/// was made. Members renew and expire with the group purchaser; other changes of the purchaser's
/// subscription (auto-renew, plan, billing retry, refunds) are not repeated on them.
///
/// A `CONSUMPTION_REQUEST` about a member's transaction is the ordinary `requestRefund`.
extension SimulatorStore {
    /// A customer (an existing one, or a new one when `appTransactionId` is nil) accepts an
    /// invitation to the group of `purchaserOriginalTransactionId`: an `ASSIGNED` subscription of
    /// their own, with a transaction ending with the group's period. The group must use `APPLE`
    /// invitations, be active, and have a seat no other member holds. Sends `SUBSCRIBED` /
    /// `INITIAL_BUY` with the member's transaction and renewal info (Apple has not said what it
    /// sends; this is what it sends a family member).
    public func assignMember(purchaserOriginalTransactionId: String, appTransactionId: String? = nil,
                             appAccountToken: UUID? = nil) async throws -> ScenarioResult {
        var purchaser = try subscription(purchaserOriginalTransactionId)
        guard var seats = purchaser.seats, seats.invitationManagement == .apple else {
            throw SimulatorError.invalidState("members get ASSIGNED subscriptions only in a group with APPLE invitations")
        }
        guard purchaser.state == .active else { throw SimulatorError.invalidState("the group's subscription is not active") }
        let period = periodSeats(seats)
        guard seats.memberIds.count < period.total - period.revoked else {
            throw SimulatorError.invalidState("every seat of the group is taken")
        }
        let customer = try customer(appTransactionId, appAccountToken: appAccountToken)
        guard !subscriptions.values.contains(where: {
            $0.appTransactionId == customer.appTransactionId
                && $0.subscriptionGroupIdentifier == purchaser.subscriptionGroupIdentifier
        }) else {
            throw SimulatorError.invalidState("the customer already has a subscription in this group")
        }
        let transactionId = ids.transactionId()
        var member = SubscriptionRecord(
            originalTransactionId: transactionId, appTransactionId: customer.appTransactionId,
            productId: purchaser.productId, subscriptionGroupIdentifier: purchaser.subscriptionGroupIdentifier,
            period: purchaser.period, price: purchaser.price, currency: purchaser.currency,
            storefront: purchaser.storefront, appAccountToken: appAccountToken ?? customer.appAccountToken,
            inAppOwnershipType: .assigned, autoRenewStatus: purchaser.autoRenewStatus,
            autoRenewProductId: purchaser.autoRenewProductId, expiresDate: purchaser.expiresDate, state: .active,
            isInBillingRetryPeriod: false, nextOfferRemainingPeriods: 0, recentSubscriptionStartDate: now,
            transactionIds: [], purchaserOriginalTransactionId: purchaserOriginalTransactionId)
        try addMemberTransaction(to: &member, id: transactionId, group: seats, purchaser: purchaser,
                                 purchaseDate: now, reason: .purchase)
        seats.memberIds.append(transactionId)
        purchaser.seats = seats
        subscriptions[purchaserOriginalTransactionId] = purchaser
        subscriptions[transactionId] = member
        return try await publish(.subscribed, .initialBuy, transactionId: transactionId, subscription: member)
    }

    /// The group purchaser takes the subscription away from a member: the member's latest
    /// transaction gets `revocationType` `ASSIGNMENT_REVOKE` and `revocationDate` (now; no
    /// `revocationReason`, which is about refunds), their subscription is revoked (status 5) and
    /// the seat is free again. Sends `REVOKE` — what Apple sends when a family member loses access
    /// — with the member's transaction and renewal info.
    public func revokeMember(memberOriginalTransactionId: String) async throws -> ScenarioResult {
        var member = try subscription(memberOriginalTransactionId)
        guard let purchaserId = member.purchaserOriginalTransactionId else {
            throw SimulatorError.invalidState("\(memberOriginalTransactionId) is not a member's ASSIGNED subscription")
        }
        guard member.state != .revoked else { throw SimulatorError.invalidState("the member's subscription is already revoked") }
        let now = now
        try modifyTransaction(member.latestTransactionId) {
            $0.revocationDate = now
            $0.revocationType = .assignmentRevoke
        }
        member.revoke()
        subscriptions[memberOriginalTransactionId] = member
        subscriptions[purchaserId]?.seats?.memberIds.removeAll { $0 == memberOriginalTransactionId }
        return try await publish(.revoke, transactionId: member.latestTransactionId, subscription: member)
    }

    /// The original transaction ids of the members holding a seat of the group of
    /// `purchaserOriginalTransactionId`, in assignment order (empty for any other subscription).
    public func memberOriginalTransactionIds(purchaserOriginalTransactionId: String) -> [String] {
        subscriptions[purchaserOriginalTransactionId]?.seats?.memberIds ?? []
    }

    /// After the group purchaser's renewal: each active member's subscription renews into the
    /// new period (`DID_RENEW`, one per member, in assignment order).
    func renewMembers(of purchaser: SubscriptionRecord) async throws {
        guard let seats = purchaser.seats else { return }
        let purchaseDate = transactions[purchaser.latestTransactionId]?.payload.purchaseDate ?? now
        for id in seats.memberIds {
            guard var member = subscriptions[id], member.state == .active else { continue }
            let transactionId = ids.transactionId()
            try addMemberTransaction(to: &member, id: transactionId, group: seats, purchaser: purchaser,
                                     purchaseDate: purchaseDate, reason: .renewal)
            member.productId = purchaser.productId
            member.autoRenewProductId = purchaser.autoRenewProductId
            subscriptions[id] = member
            _ = try await publish(.didRenew, transactionId: transactionId, subscription: member)
        }
    }

    /// After the group purchaser's subscription expired: the group ends, and each active member's
    /// subscription expires too (`EXPIRED` with the purchaser's `subtype`, one per member).
    func expireMembers(of purchaser: SubscriptionRecord, subtype: Subtype) async throws {
        guard let memberIds = purchaser.seats?.memberIds, !memberIds.isEmpty else { return }
        subscriptions[purchaser.originalTransactionId]?.seats?.memberIds = []
        for id in memberIds {
            guard var member = subscriptions[id], member.state == .active else { continue }
            member.state = .expired
            member.autoRenewStatus = .off
            member.expirationIntent = purchaser.expirationIntent
            subscriptions[id] = member
            _ = try await publish(.expired, subtype, transactionId: member.latestTransactionId, subscription: member)
        }
    }

    /// Appends to `member` an `ASSIGNED` transaction repeating the seats and tiers of the group's
    /// current period, ending with it.
    private func addMemberTransaction(
        to member: inout SubscriptionRecord, id: String, group seats: SeatState, purchaser: SubscriptionRecord,
        purchaseDate: Date, reason: TransactionReason
    ) throws {
        let originalPurchaseDate = member.transactionIds.first.flatMap { transactions[$0]?.payload.purchaseDate }
        var payload = JWSTransactionDecodedPayload(
            originalTransactionId: member.originalTransactionId,
            transactionId: id,
            webOrderLineItemId: ids.webOrderLineItemId(),
            bundleId: configuration.bundleId,
            productId: purchaser.productId,
            subscriptionGroupIdentifier: member.subscriptionGroupIdentifier,
            purchaseDate: purchaseDate,
            originalPurchaseDate: originalPurchaseDate ?? purchaseDate,
            expiresDate: purchaser.expiresDate,
            type: .autoRenewable,
            appAccountToken: member.appAccountToken,
            inAppOwnershipType: .assigned,
            environment: configuration.environment,
            storefront: member.storefront,
            storefrontId: configuration.storefrontId(for: member.storefront),
            transactionReason: reason,
            currency: member.currency,
            appTransactionId: member.appTransactionId
        )
        try setSeats(of: &payload, tiers: periodTiers(seats), invitationManagement: seats.invitationManagement)
        insert(payload)
        member.transactionIds.append(id)
        member.expiresDate = purchaser.expiresDate
    }
}

import AppStoreServer
import Foundation

/// Auto-renewable subscription scenarios: purchase, renewal, auto-renew changes, expiry,
/// resubscription and offer redemption, each with the notification Apple sends for it.
extension SimulatorStore {
    /// A customer buys a subscription: `SUBSCRIBED` / `INITIAL_BUY` — a multiseat purchase with
    /// `seats`, a monthly plan with a commitment with `billingPlanType` `MONTHLY`.
    public func subscribe(_ request: SubscribeRequest) async throws -> ScenarioResult {
        guard !request.productId.isEmpty else { throw SimulatorError.invalidRequest("productId is empty") }
        let seats = try request.seatState()
        let commitmentPeriods = try request.commitmentBillingPeriodCount()
        let customer = try customer(request.appTransactionId, appAccountToken: request.appAccountToken)
        let group = request.subscriptionGroupIdentifier ?? "group.default"
        if subscriptions.values.contains(where: {
            $0.appTransactionId == customer.appTransactionId && $0.subscriptionGroupIdentifier == group
        }) {
            throw SimulatorError.invalidState(
                "the customer already has a subscription in group \(group); use resubscribe")
        }
        let purchaseDate = now
        let transactionId = ids.transactionId()
        var record = SubscriptionRecord(
            originalTransactionId: transactionId,
            appTransactionId: customer.appTransactionId,
            productId: request.productId,
            subscriptionGroupIdentifier: group,
            period: request.period ?? .oneMonth,
            price: request.price ?? 9990,
            currency: request.currency ?? configuration.defaultCurrency,
            storefront: request.storefront ?? configuration.defaultStorefront,
            appAccountToken: request.appAccountToken ?? customer.appAccountToken,
            inAppOwnershipType: request.inAppOwnershipType ?? .purchased,
            autoRenewStatus: .on,
            autoRenewProductId: request.productId,
            expiresDate: purchaseDate,
            state: .active,
            isInBillingRetryPeriod: false,
            nextOfferRemainingPeriods: 0,
            recentSubscriptionStartDate: purchaseDate,
            transactionIds: [],
            seats: seats,
            commitment: commitmentPeriods.map { CommitmentState.unstarted(totalBillingPeriods: $0) }
        )
        try addPeriod(to: &record, transactionId: transactionId, purchaseDate: purchaseDate, reason: .purchase,
                      offer: request.offer)
        subscriptions[transactionId] = record
        return try await publish(.subscribed, .initialBuy, transactionId: transactionId, subscription: record)
    }

    /// The subscription renews for another period: `DID_RENEW` (subtype `BILLING_RECOVERY` when it
    /// was in billing retry). `price` overrides the renewal price once (not for a multiseat
    /// subscription). A multiseat subscription renews its `renewalQuantity` seats, and each
    /// Apple-hosted member's subscription renews with it (a `DID_RENEW` each, after this one). On a
    /// monthly plan the renewal pays the commitment's next billing period, or starts a new
    /// commitment after the last one — unless auto-renew is off, when the commitment ends there.
    public func renew(originalTransactionId: String, price: Int64? = nil) async throws -> ScenarioResult {
        var record = try subscription(originalTransactionId)
        guard record.state != .revoked else { throw SimulatorError.invalidState("the subscription was revoked") }
        guard record.purchaserOriginalTransactionId == nil else {
            throw SimulatorError.invalidState("a member's subscription renews with the group purchaser's")
        }
        if let commitment = record.commitment, commitment.isInLastPeriod, record.autoRenewStatus == .off {
            throw SimulatorError.invalidState("the commitment has ended and auto-renew is off; expire it")
        }
        let recovering = record.state == .billingRetry || record.state == .billingGracePeriod
        guard record.state == .active || recovering else {
            throw SimulatorError.invalidState("an expired subscription does not renew; use resubscribe")
        }
        let purchaseDate = recovering ? now : record.expiresDate
        let transactionId = ids.transactionId()
        let offer = record.nextOfferRemainingPeriods > 0 ? record.nextOffer : nil
        try addPeriod(to: &record, transactionId: transactionId, purchaseDate: purchaseDate, reason: .renewal,
                      offer: offer, continuingOffer: true, priceOverride: price)
        record.productId = record.autoRenewProductId
        record.state = .active
        record.isInBillingRetryPeriod = false
        record.gracePeriodExpiresDate = nil
        subscriptions[originalTransactionId] = record
        let result = try await publish(.didRenew, recovering ? .billingRecovery : nil, transactionId: transactionId,
                                       subscription: record)
        try await renewMembers(of: record)
        return result
    }

    /// The customer turns auto-renew off or on: `DID_CHANGE_RENEWAL_STATUS` /
    /// `AUTO_RENEW_DISABLED` or `AUTO_RENEW_ENABLED`.
    public func setAutoRenew(originalTransactionId: String, enabled: Bool) async throws -> ScenarioResult {
        var record = try subscription(originalTransactionId)
        record.autoRenewStatus = enabled ? .on : .off
        subscriptions[originalTransactionId] = record
        return try await publish(.didChangeRenewalStatus, enabled ? .autoRenewEnabled : .autoRenewDisabled,
                                 transactionId: record.latestTransactionId, subscription: record)
    }

    /// Renewal fails and the subscription enters billing retry: `DID_FAIL_TO_RENEW` (subtype
    /// `GRACE_PERIOD` with a grace period of `gracePeriod`).
    public func failRenewal(originalTransactionId: String, gracePeriod: SubscriptionPeriod? = nil)
        async throws -> ScenarioResult
    {
        var record = try subscription(originalTransactionId)
        guard record.state == .active else { throw SimulatorError.invalidState("only an active subscription fails to renew") }
        record.isInBillingRetryPeriod = true
        record.expirationIntent = .billingError
        if let gracePeriod {
            record.state = .billingGracePeriod
            record.gracePeriodExpiresDate = gracePeriod.added(to: record.expiresDate)
        } else {
            record.state = .billingRetry
        }
        subscriptions[originalTransactionId] = record
        return try await publish(.didFailToRenew, gracePeriod == nil ? nil : .gracePeriod,
                                 transactionId: record.latestTransactionId, subscription: record)
    }

    /// The subscription expires: `EXPIRED` with `subtype` (`VOLUNTARY`, `BILLING_RETRY`,
    /// `PRICE_INCREASE`, `PRODUCT_NOT_FOR_SALE`). The renewal info then lists
    /// `eligibleWinBackOfferIds` (best first) as the scenario says. A multiseat subscription's
    /// Apple-hosted members' subscriptions expire with it (an `EXPIRED` each, after this one).
    public func expire(originalTransactionId: String, subtype: Subtype = .voluntary,
                       eligibleWinBackOfferIds: [String]? = nil) async throws -> ScenarioResult {
        var record = try subscription(originalTransactionId)
        guard record.state != .expired && record.state != .revoked else {
            throw SimulatorError.invalidState("the subscription is not active")
        }
        record.expirationIntent = switch subtype {
        case .voluntary: .customerCancelled
        case .billingRetry: .billingError
        case .priceIncrease: .customerDidNotConsentToPriceIncrease
        case .productNotForSale: .productNotAvailable
        default: .other
        }
        record.state = .expired
        record.autoRenewStatus = .off
        record.isInBillingRetryPeriod = false
        record.gracePeriodExpiresDate = nil
        record.nextOffer = nil
        record.nextOfferRemainingPeriods = 0
        record.eligibleWinBackOfferIds = eligibleWinBackOfferIds
        subscriptions[originalTransactionId] = record
        let result = try await publish(.expired, subtype, transactionId: record.latestTransactionId,
                                       subscription: record)
        try await expireMembers(of: record, subtype: subtype)
        return result
    }

    /// An expired customer subscribes again (optionally redeeming an offer, e.g. win-back):
    /// `SUBSCRIBED` / `RESUBSCRIBE`. `productId` and `price` default to the previous ones.
    public func resubscribe(originalTransactionId: String, productId: String? = nil, price: Int64? = nil,
                            offer: SimulatedOffer? = nil) async throws -> ScenarioResult {
        var record = try subscription(originalTransactionId)
        guard record.state == .expired || record.state == .revoked else {
            throw SimulatorError.invalidState("only an expired subscription can be resubscribed")
        }
        guard record.purchaserOriginalTransactionId == nil else {
            throw SimulatorError.invalidState("a member's subscription cannot be resubscribed")
        }
        if price != nil, record.seats != nil {
            throw SimulatorError.invalidRequest("a multiseat subscription is priced by its seat pricing")
        }
        if let productId { record.productId = productId; record.autoRenewProductId = productId }
        if let price { record.price = price }
        let purchaseDate = now
        if purchaseDate.timeIntervalSince(record.expiresDate) >= 60 * 86400 {
            record.recentSubscriptionStartDate = purchaseDate
        }
        let transactionId = ids.transactionId()
        try addPeriod(to: &record, transactionId: transactionId, purchaseDate: purchaseDate, reason: .purchase,
                      offer: offer)
        record.state = .active
        record.autoRenewStatus = .on
        record.expirationIntent = nil
        record.eligibleWinBackOfferIds = nil
        subscriptions[originalTransactionId] = record
        return try await publish(.subscribed, .resubscribe, transactionId: transactionId, subscription: record)
    }

    /// The customer switches plan within the subscription group: `DID_CHANGE_RENEWAL_PREF`. A
    /// downgrade (or crossgrade) applies from the next renewal (`DOWNGRADE`: the renewal info's
    /// `autoRenewProductId` changes); an upgrade starts a new period of `productId` now (`UPGRADE`).
    public func changeProduct(originalTransactionId: String, productId: String, upgrade: Bool) async throws -> ScenarioResult {
        var record = try subscription(originalTransactionId)
        guard record.state == .active else { throw SimulatorError.invalidState("only an active subscription changes plan") }
        guard productId != record.autoRenewProductId else {
            throw SimulatorError.invalidState("the subscription already renews into \(productId)")
        }
        record.autoRenewProductId = productId
        var transactionId = record.latestTransactionId
        if upgrade {
            transactionId = ids.transactionId()
            try addPeriod(to: &record, transactionId: transactionId, purchaseDate: now, reason: .purchase, offer: nil)
            record.productId = productId
        }
        subscriptions[originalTransactionId] = record
        return try await publish(.didChangeRenewalPref, upgrade ? .upgrade : .downgrade, transactionId: transactionId,
                                 subscription: record)
    }

    /// The customer redeems an offer (promotional, offer code, win-back). On an active
    /// subscription it applies from the next renewal: `OFFER_REDEEMED` (no subtype). On an expired
    /// one it starts a new period now: `SUBSCRIBED` / `RESUBSCRIBE`.
    public func redeemOffer(originalTransactionId: String, offer: SimulatedOffer) async throws -> ScenarioResult {
        var record = try subscription(originalTransactionId)
        guard record.seats == nil else { throw SimulatorError.invalidRequest("offers on multiseat purchases are not simulated") }
        if record.state == .expired || record.state == .revoked {
            return try await resubscribe(originalTransactionId: originalTransactionId, offer: offer)
        }
        record.nextOffer = offer
        record.nextOfferRemainingPeriods = offer.billingPeriods
        subscriptions[originalTransactionId] = record
        return try await publish(.offerRedeemed, transactionId: record.latestTransactionId, subscription: record)
    }

    /// Appends a new period (transaction) to `record` starting at `purchaseDate`.
    ///
    /// With an offer the period is the offer's period at the offer's price; a pay-as-you-go
    /// offer keeps applying to the following renewals until its periods run out. A multiseat
    /// period covers the renewal seats; a monthly plan's period pays a billing period of its
    /// commitment. Throws, storing nothing, for an offer or price override on a multiseat purchase.
    private func addPeriod(
        to record: inout SubscriptionRecord, transactionId: String, purchaseDate: Date, reason: TransactionReason,
        offer: SimulatedOffer?, continuingOffer: Bool = false, priceOverride: Int64? = nil
    ) throws {
        let periodLength = offer?.effectivePeriod(regular: record.period) ?? record.period
        let expiresDate = periodLength.added(to: purchaseDate)
        let price = priceOverride ?? offer?.effectivePrice(regular: record.price) ?? record.price
        let originalPurchaseDate = record.transactionIds.first.flatMap { transactions[$0]?.payload.purchaseDate }
        var payload = JWSTransactionDecodedPayload(
            originalTransactionId: record.originalTransactionId,
            transactionId: transactionId,
            webOrderLineItemId: ids.webOrderLineItemId(),
            bundleId: configuration.bundleId,
            productId: record.autoRenewProductId,
            subscriptionGroupIdentifier: record.subscriptionGroupIdentifier,
            purchaseDate: purchaseDate,
            originalPurchaseDate: originalPurchaseDate ?? purchaseDate,
            expiresDate: expiresDate,
            quantity: 1,
            type: .autoRenewable,
            appAccountToken: record.appAccountToken,
            inAppOwnershipType: record.inAppOwnershipType,
            isUpgraded: nil,
            offerType: offer?.type,
            offerIdentifier: offer?.identifier,
            environment: configuration.environment,
            storefront: record.storefront,
            storefrontId: configuration.storefrontId(for: record.storefront),
            transactionReason: reason,
            currency: record.currency,
            price: price,
            offerDiscountType: offer?.discountType,
            appTransactionId: record.appTransactionId,
            offerPeriod: offer?.offerPeriod(regular: record.period)
        )
        try applySeats(to: &payload, record: &record, offer: offer, priceOverride: priceOverride)
        try applyCommitment(to: &payload, record: &record)
        insert(payload)
        record.transactionIds.append(transactionId)
        record.expiresDate = expiresDate
        if let offer {
            let remaining = continuingOffer ? record.nextOfferRemainingPeriods - 1 : offer.billingPeriods - 1
            record.nextOffer = remaining > 0 ? offer : nil
            record.nextOfferRemainingPeriods = max(remaining, 0)
        }
    }
}

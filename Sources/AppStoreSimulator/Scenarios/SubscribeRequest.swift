import AppStoreServer
import Foundation

/// Buy an auto-renewable subscription: `SUBSCRIBED` / `INITIAL_BUY`.
///
/// With ``seats`` it is a multiseat purchase: the transaction's `quantity` is the seats, its
/// `price` the average per seat and `multiSeatInfo` the seats at each price of ``seatPricing``.
/// With ``billingPlanType`` `MONTHLY` the customer commits to ``commitmentBillingPeriods``
/// monthly payments of ``price`` (the transactions and renewal info carry `commitmentInfo`).
public struct SubscribeRequest: Sendable, Hashable, Codable {
    /// The product bought.
    public var productId: String
    /// Its subscription group; nil means `"group.default"`.
    public var subscriptionGroupIdentifier: String?
    /// Regular price per period in milliunits; nil means 9990. For a multiseat purchase without
    /// ``seatPricing``, the price of every seat.
    public var price: Int64?
    /// ISO 4217 currency; nil means the app configuration's default.
    public var currency: String?
    /// ISO alpha-3 storefront; nil means the app configuration's default.
    public var storefront: String?
    /// Billing period; nil means one month (a monthly plan bills monthly whatever this says, so it
    /// must be nil or one month).
    public var period: SubscriptionPeriod?
    /// An offer applied to the purchase (not with ``seats``).
    public var offer: SimulatedOffer?
    /// `appAccountToken` attached to the purchase.
    public var appAccountToken: UUID?
    /// An existing customer (their app transaction id); nil creates a new customer.
    public var appTransactionId: String?
    /// `PURCHASED` (default) or `FAMILY_SHARED`.
    public var inAppOwnershipType: InAppOwnershipType?
    /// The seats of a multiseat purchase (at least 1); nil buys an ordinary single-seat subscription.
    public var seats: Int32?
    /// The product's graduated seat pricing; nil means every seat at ``price``. Only with ``seats``.
    public var seatPricing: SeatPricing?
    /// Who hosts the group's invitations, `APPLE` or `DEVELOPER`; nil means `APPLE`. Only with ``seats``.
    public var invitationManagement: InvitationManagement?
    /// `MONTHLY` for a monthly plan with a commitment; nil for an ordinary subscription.
    public var billingPlanType: BillingPlanType?
    /// The monthly payments a commitment takes; nil means 12. Only with ``billingPlanType``.
    public var commitmentBillingPeriods: Int32?

    /// A subscription purchase.
    public init(productId: String, subscriptionGroupIdentifier: String? = nil, price: Int64? = nil,
                currency: String? = nil, storefront: String? = nil, period: SubscriptionPeriod? = nil,
                offer: SimulatedOffer? = nil, appAccountToken: UUID? = nil, appTransactionId: String? = nil,
                inAppOwnershipType: InAppOwnershipType? = nil, seats: Int32? = nil, seatPricing: SeatPricing? = nil,
                invitationManagement: InvitationManagement? = nil, billingPlanType: BillingPlanType? = nil,
                commitmentBillingPeriods: Int32? = nil) {
        self.productId = productId
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.price = price
        self.currency = currency
        self.storefront = storefront
        self.period = period
        self.offer = offer
        self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId
        self.inAppOwnershipType = inAppOwnershipType
        self.seats = seats
        self.seatPricing = seatPricing
        self.invitationManagement = invitationManagement
        self.billingPlanType = billingPlanType
        self.commitmentBillingPeriods = commitmentBillingPeriods
    }

    /// The seat state of the purchase, nil for a single-seat one; throws
    /// ``SimulatorError/invalidRequest(_:)`` for seats out of range, bad pricing, an offer, or
    /// seat options without seats.
    func seatState() throws -> SeatState? {
        guard let seats else {
            if seatPricing != nil || invitationManagement != nil {
                throw SimulatorError.invalidRequest("seatPricing and invitationManagement need seats")
            }
            return nil
        }
        guard (1...SeatState.maximumSeats).contains(seats) else {
            throw SimulatorError.invalidRequest("seats must be in 1…\(SeatState.maximumSeats)")
        }
        guard offer == nil else { throw SimulatorError.invalidRequest("offers on multiseat purchases are not simulated") }
        let pricing = seatPricing ?? .flat(price ?? 9990)
        try pricing.validate()
        return SeatState(pricing: pricing, invitationManagement: invitationManagement ?? .apple, renewalSeats: seats)
    }

    /// The commitment terms of the purchase (its billing periods), nil for an ordinary
    /// subscription; throws ``SimulatorError/invalidRequest(_:)`` for a plan other than `MONTHLY`,
    /// a period other than a month, or a period count without a plan.
    func commitmentBillingPeriodCount() throws -> Int32? {
        guard let billingPlanType else {
            if commitmentBillingPeriods != nil {
                throw SimulatorError.invalidRequest("commitmentBillingPeriods needs billingPlanType MONTHLY")
            }
            return nil
        }
        guard billingPlanType == .monthly else {
            throw SimulatorError.invalidRequest("only the MONTHLY billing plan is simulated")
        }
        guard period == nil || period == .oneMonth else {
            throw SimulatorError.invalidRequest("a monthly plan bills every month (period P1M)")
        }
        let count = commitmentBillingPeriods ?? 12
        guard (2...120).contains(count) else {
            throw SimulatorError.invalidRequest("commitmentBillingPeriods must be in 2…120")
        }
        return count
    }
}

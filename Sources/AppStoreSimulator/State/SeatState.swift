import AppStoreServer
import Foundation

/// The seats of a multiseat subscription, kept on the group purchaser's ``SubscriptionRecord``.
///
/// A period's seats are the `quantity` of its transactions together: the purchase (or renewal)
/// and each seat addition. ``renewalSeats`` is what the next renewal charges: additions raise it
/// at once, reductions lower it (they take effect at the next renewal), and a seat refund lowers
/// it to the seats still valid.
struct SeatState: Sendable {
    /// The most seats the simulator lets a subscription have (a limit of its own, so that sums of
    /// seats and prices stay far from overflowing; Apple publishes none).
    static let maximumSeats: Int32 = 1_000_000

    /// The graduated per-seat prices every purchase, addition and renewal of the group uses.
    var pricing: SeatPricing
    /// Who hosts the group's invitations (`invitationManagement`).
    var invitationManagement: InvitationManagement
    /// Seats at the next renewal (renewal info's `renewalQuantity`).
    var renewalSeats: Int32
    /// The transactions of the current period, oldest first: its purchase or renewal, then each
    /// seat addition.
    var periodTransactionIds: [String] = []
    /// Original transaction ids of the members' `ASSIGNED` subscriptions (Apple-hosted
    /// invitations), in assignment order; a revoked member is removed.
    var memberIds: [String] = []

    /// The tiers of the next renewal: seats 1 to ``renewalSeats``.
    var renewalTiers: [MultiSeatPriceTier] { pricing.priceTiers(firstSeat: 1, count: renewalSeats) }
}

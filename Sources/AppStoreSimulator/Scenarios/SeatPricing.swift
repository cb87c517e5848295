import AppStoreServer
import Foundation

/// The seat-based pricing of a multiseat subscription product: graduated price tiers, each a
/// per-seat price from a seat number on, as App Store Connect's seat-based pricing sets them.
///
/// Pricing is graduated: each seat costs the price of the tier its number falls in. With tiers
/// from seat 1 at 9990, from seat 6 at 7990 and from seat 11 at 5990, 8 seats cost 5 × 9990 +
/// 3 × 7990, and seats 9–12 added later cost 2 × 7990 + 2 × 5990. What a transaction records is
/// the seats bought at each price (``priceTiers(firstSeat:count:)``), not these ranges.
public struct SeatPricing: Sendable, Hashable, Codable {
    /// One tier: the per-seat price of every seat numbered ``firstSeat`` or higher, up to the next
    /// tier's first seat.
    public struct Tier: Sendable, Hashable, Codable {
        /// The 1-based number of the first seat at this price.
        public var firstSeat: Int32
        /// The price per seat per billing period, in milliunits.
        public var price: Int64

        /// A tier of seats from `firstSeat` on at `price`.
        public init(firstSeat: Int32, price: Int64) {
            self.firstSeat = firstSeat
            self.price = price
        }
    }

    /// The tiers; the first starts at seat 1 and each later one at a higher seat.
    public var tiers: [Tier]

    /// Pricing with `tiers` (checked when a scenario uses it).
    public init(tiers: [Tier]) {
        self.tiers = tiers
    }

    /// One price for every seat.
    public static func flat(_ price: Int64) -> SeatPricing {
        SeatPricing(tiers: [Tier(firstSeat: 1, price: price)])
    }

    /// Throws ``SimulatorError/invalidRequest(_:)`` unless the first tier starts at seat 1, the
    /// tiers start at strictly increasing seats, and no price is negative.
    func validate() throws {
        guard let first = tiers.first, first.firstSeat == 1 else {
            throw SimulatorError.invalidRequest("seat pricing needs a first tier from seat 1")
        }
        for (previous, next) in zip(tiers, tiers.dropFirst()) where next.firstSeat <= previous.firstSeat {
            throw SimulatorError.invalidRequest("seat pricing tiers must start at increasing seats")
        }
        guard tiers.allSatisfy({ $0.price >= 0 }) else {
            throw SimulatorError.invalidRequest("seat prices must not be negative")
        }
    }

    /// The seats numbered `firstSeat` to `firstSeat + count - 1` at each price, in the order seats
    /// fill the tiers (the form of a transaction's `priceTiers`); empty when `count` is not
    /// positive.
    public func priceTiers(firstSeat: Int32, count: Int32) -> [MultiSeatPriceTier] {
        guard count > 0 else { return [] }
        let first = Int64(firstSeat)
        let last = first + Int64(count) - 1
        var result: [MultiSeatPriceTier] = []
        for (index, tier) in tiers.enumerated() {
            let tierEnd = index + 1 < tiers.count ? Int64(tiers[index + 1].firstSeat) - 1 : Int64.max
            let low = max(first, Int64(tier.firstSeat))
            let high = min(last, tierEnd)
            if low <= high {
                result.append(MultiSeatPriceTier(price: tier.price, quantity: Int32(high - low + 1)))
            }
        }
        return result
    }

    /// The average price per seat of `tiers` — their total over their seats, rounded to the
    /// nearest milliunit, halves up — which Apple writes as a multiseat transaction's `price` and
    /// renewal info's `renewalPrice`. Nil when the tiers hold no seats or their total overflows.
    public static func averagePrice(of tiers: [MultiSeatPriceTier]) -> Int64? {
        guard let total = MultiSeatPriceTier.totalAmount(of: tiers) else { return nil }
        let seats = tiers.reduce(Int64(0)) { $0 + Int64($1.quantity ?? 0) }
        guard seats > 0 else { return nil }
        return (total + seats / 2) / seats
    }

    /// `tiers` with the seats of equal prices added together, in the order the prices first
    /// appear: the tiers of several transactions of one period as one list.
    static func merged(_ tiers: [MultiSeatPriceTier]) -> [MultiSeatPriceTier] {
        var result: [MultiSeatPriceTier] = []
        for tier in tiers {
            if let index = result.firstIndex(where: { $0.price == tier.price }) {
                result[index].quantity = (result[index].quantity ?? 0) + (tier.quantity ?? 0)
            } else {
                result.append(tier)
            }
        }
        return result
    }
}

/// How one offer rule has done: its decisions, the offers it made, the customers it held out,
/// and what they did afterwards.
public struct OfferRuleStatistics: Sendable, Equatable {
    public var ruleId: String
    public var decisions: Int
    /// Offers made (not held out).
    public var offersMade: Int
    public var heldOut: Int
    /// Made offers that were redeemed.
    public var redeemed: Int
    /// Treatment customers with an outcome (redeemed or retained).
    public var convertedTreatment: Int
    /// Held-out customers who stayed.
    public var convertedHoldout: Int
    /// Decisions after which the customer took a retention offer Apple chose (`offerType` 5).
    public var appleOffer: Int
    /// Decisions after which the customer switched plan.
    public var switched: Int
    /// Decisions after which the subscription renewed (auto-renew kept).
    public var renewed: Int
    /// Cancel-page decisions after which the customer turned auto-renew off (and has not come back).
    public var cancelled: Int
    /// Decisions after which the customer added seats to a multiseat subscription (a stay).
    public var addedSeats: Int
    /// Decisions still open after Apple refunded some of the purchaser's seats (not a full refund).
    public var seatsRefunded: Int
    /// Decisions still open after seats were unclaimed (`UNCLAIM_SEATS`).
    public var seatsUnclaimed: Int
    /// Decisions still open after the purchaser took the subscription away from the member
    /// (`ASSIGNMENT_REVOKE`, not a refund).
    public var assignmentRevoked: Int

    public init(ruleId: String, decisions: Int, offersMade: Int, heldOut: Int, redeemed: Int,
                convertedTreatment: Int, convertedHoldout: Int, appleOffer: Int = 0, switched: Int = 0, renewed: Int = 0,
                cancelled: Int = 0, addedSeats: Int = 0, seatsRefunded: Int = 0, seatsUnclaimed: Int = 0,
                assignmentRevoked: Int = 0) {
        self.addedSeats = addedSeats
        self.seatsRefunded = seatsRefunded
        self.seatsUnclaimed = seatsUnclaimed
        self.assignmentRevoked = assignmentRevoked
        self.appleOffer = appleOffer
        self.switched = switched
        self.renewed = renewed
        self.cancelled = cancelled
        self.ruleId = ruleId
        self.decisions = decisions
        self.offersMade = offersMade
        self.heldOut = heldOut
        self.redeemed = redeemed
        self.convertedTreatment = convertedTreatment
        self.convertedHoldout = convertedHoldout
    }
}

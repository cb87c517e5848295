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

    public init(ruleId: String, decisions: Int, offersMade: Int, heldOut: Int, redeemed: Int,
                convertedTreatment: Int, convertedHoldout: Int) {
        self.ruleId = ruleId
        self.decisions = decisions
        self.offersMade = offersMade
        self.heldOut = heldOut
        self.redeemed = redeemed
        self.convertedTreatment = convertedTreatment
        self.convertedHoldout = convertedHoldout
    }
}

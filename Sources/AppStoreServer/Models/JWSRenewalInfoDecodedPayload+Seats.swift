extension JWSRenewalInfoDecodedPayload {
    /// Whether the subscription renews as a multiseat purchase (the renewal info carries
    /// ``multiSeatInfo``).
    public var isMultiSeat: Bool { multiSeatInfo != nil }

    /// What the next renewal will charge, in milliunits of ``currency``.
    ///
    /// For a multiseat renewal, the sum over the renewal price tiers of price × quantity
    /// (``MultiSeatPriceTier/totalAmount(of:)``): nil when there are no tiers, when a tier is
    /// incomplete or negative, or when the sum would overflow `Int64` — never ``renewalPrice``,
    /// which is then the average per seat. Otherwise ``renewalPrice`` (nil when absent).
    public var renewalAmount: Int64? {
        guard let multiSeatInfo else { return renewalPrice }
        return multiSeatInfo.renewalPriceTiers.flatMap(MultiSeatPriceTier.totalAmount(of:))
    }

    /// The seats expected at the next renewal: ``renewalQuantity``, nil when it is absent or not
    /// positive.
    public var renewalSeats: Int32? {
        guard let renewalQuantity, renewalQuantity > 0 else { return nil }
        return renewalQuantity
    }
}

extension JWSTransactionDecodedPayload {
    /// Whether the transaction is part of a multiseat purchase (it carries ``multiSeatInfo``).
    public var isMultiSeat: Bool { multiSeatInfo != nil }

    /// The seats a seat-based refund took back from this transaction: `revokedSeatQuantity` inside
    /// ``multiSeatInfo`` (where the transaction's multiseat object describes it) or, when absent
    /// there, at the top level. Nil when neither is present. The transaction stays valid for its
    /// other seats; only the group purchaser's transaction carries the value.
    public var resolvedRevokedSeatQuantity: Int32? {
        multiSeatInfo?.revokedSeatQuantity ?? revokedSeatQuantity
    }

    /// Why the transaction's period has more than one transaction: `additionalTransactionReason` at
    /// the top level or, when absent there, inside ``multiSeatInfo``. Nil when neither is present.
    public var resolvedAdditionalTransactionReason: AdditionalTransactionReason? {
        additionalTransactionReason ?? multiSeatInfo?.additionalTransactionReason
    }

    /// The seats the transaction covers: ``quantity`` for a multiseat purchase (nil when it is
    /// missing or not positive), and 1 for any other transaction, which gives its one customer
    /// access (a consumable's ``quantity`` counts items, not seats). Seats a refund took back
    /// (``resolvedRevokedSeatQuantity``) are not subtracted.
    public var seatCount: Int32? {
        guard isMultiSeat else { return 1 }
        guard let quantity, quantity > 0 else { return nil }
        return quantity
    }

    /// What the transaction charged, in milliunits of ``currency``.
    ///
    /// For a multiseat purchase, the sum over the price tiers of price × quantity
    /// (``MultiSeatPriceTier/totalAmount(of:)``): nil when there are no tiers, when a tier is
    /// incomplete or negative, or when the sum would overflow `Int64` — never ``price``, which is
    /// then the average per seat. For any other transaction, ``price`` (nil when absent).
    ///
    /// An `ASSIGNED` transaction repeats the group purchaser's tiers: its amount is the purchaser's
    /// charge, not one to this customer.
    public var chargedAmount: Int64? {
        guard let multiSeatInfo else { return price }
        return multiSeatInfo.priceTiers.flatMap(MultiSeatPriceTier.totalAmount(of:))
    }
}

/// The seats of a transaction of a multiseat purchase (`multiSeatInfo` of a transaction), present
/// only for multiseat purchases.
///
/// The transaction's `quantity` is the number of seats it covers and its `price` the average price
/// per seat; what it charged is the sum over ``priceTiers`` of price × quantity
/// (``JWSTransactionDecodedPayload/chargedAmount``).
///
/// Whether `revokedSeatQuantity` and `additionalTransactionReason` sit here or at the top level of
/// the transaction is not confirmed, so both placements are modelled and kept as they arrived:
/// ``JWSTransactionDecodedPayload/resolvedRevokedSeatQuantity`` and
/// ``JWSTransactionDecodedPayload/resolvedAdditionalTransactionReason`` read whichever is present.
/// Every member decodes tolerantly (see `TolerantDecoding.swift`).
public struct TransactionMultiSeatInfo: Codable, Hashable, Sendable {
    /// Whether Apple or the developer's app hosts the group's invitations.
    public var invitationManagement: InvitationManagement?
    /// The seats at each price, in no guaranteed order.
    public var priceTiers: [MultiSeatPriceTier]?
    /// The seats a seat-based refund took back from this transaction, which stays valid for the
    /// rest. Only the group purchaser's transaction carries it.
    public var revokedSeatQuantity: Int32?
    /// `additionalTransactionReason` when it arrives inside `multiSeatInfo`.
    public var additionalTransactionReason: AdditionalTransactionReason?

    public init(
        invitationManagement: InvitationManagement? = nil,
        priceTiers: [MultiSeatPriceTier]? = nil,
        revokedSeatQuantity: Int32? = nil,
        additionalTransactionReason: AdditionalTransactionReason? = nil
    ) {
        self.invitationManagement = invitationManagement
        self.priceTiers = priceTiers
        self.revokedSeatQuantity = revokedSeatQuantity
        self.additionalTransactionReason = additionalTransactionReason
    }

    enum CodingKeys: String, CodingKey {
        case invitationManagement, priceTiers, revokedSeatQuantity, additionalTransactionReason
    }

    public init(from decoder: any Decoder) throws {
        let container = decoder.tolerantContainer(keyedBy: CodingKeys.self)
        invitationManagement = container?.tolerantValue(InvitationManagement.self, forKey: .invitationManagement)
        priceTiers = container?.tolerantValue([MultiSeatPriceTier].self, forKey: .priceTiers)
        revokedSeatQuantity = container?.tolerantValue(Int32.self, forKey: .revokedSeatQuantity)
        additionalTransactionReason = container?.tolerantValue(AdditionalTransactionReason.self, forKey: .additionalTransactionReason)
    }
}

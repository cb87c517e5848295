/// The seats of the next renewal of a subscription that renews as a multiseat purchase
/// (`multiSeatInfo` of renewal info), present only in that case.
///
/// The renewal info's `renewalQuantity` is the number of seats that renew and its `renewalPrice`
/// the average price per seat; the next charge is the sum over ``renewalPriceTiers`` of
/// price × quantity (``JWSRenewalInfoDecodedPayload/renewalAmount``). Every member decodes
/// tolerantly (see `TolerantDecoding.swift`).
public struct RenewalMultiSeatInfo: Codable, Hashable, Sendable {
    /// The renewing seats at each price, in no guaranteed order.
    public var renewalPriceTiers: [MultiSeatPriceTier]?

    public init(renewalPriceTiers: [MultiSeatPriceTier]? = nil) {
        self.renewalPriceTiers = renewalPriceTiers
    }

    enum CodingKeys: String, CodingKey {
        case renewalPriceTiers
    }

    public init(from decoder: any Decoder) throws {
        let container = decoder.tolerantContainer(keyedBy: CodingKeys.self)
        renewalPriceTiers = container?.tolerantValue([MultiSeatPriceTier].self, forKey: .renewalPriceTiers)
    }
}

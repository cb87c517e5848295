/// One price tier of a multiseat purchase (`MultiSeatPriceTier`): a price per seat and the number
/// of seats at that price.
///
/// The tiers are in `priceTiers` of a transaction's ``TransactionMultiSeatInfo`` and in
/// `renewalPriceTiers` of a renewal's ``RenewalMultiSeatInfo``; their order is not guaranteed.
///
/// Which spelling the JSON members have is not confirmed: Apple's reference names their types
/// `tierPrice` and `tierQuantity`, and its prose calls them the tier's `price` and `quantity`.
/// Decoding accepts both (`price` wins when both are present and readable); encoding writes
/// `price` and `quantity`, the prose's spelling. Members are read tolerantly (see
/// `TolerantDecoding.swift`): one that is missing or of another type is nil, and the tier counts
/// as incomplete.
public struct MultiSeatPriceTier: Codable, Hashable, Sendable {
    /// The price per seat in milliunits of the enclosing payload's `currency`: 9990 means 9.99.
    public var price: Int64?
    /// The number of seats at ``price``.
    public var quantity: Int32?

    public init(price: Int64? = nil, quantity: Int32? = nil) {
        self.price = price
        self.quantity = quantity
    }

    enum CodingKeys: String, CodingKey {
        case price, quantity
    }

    /// The other spelling the members may arrive in.
    private enum TypeNameKeys: String, CodingKey {
        case tierPrice, tierQuantity
    }

    public init(from decoder: any Decoder) throws {
        let canonical = decoder.tolerantContainer(keyedBy: CodingKeys.self)
        let typeNamed = decoder.tolerantContainer(keyedBy: TypeNameKeys.self)
        price = canonical?.tolerantValue(Int64.self, forKey: .price) ?? typeNamed?.tolerantValue(Int64.self, forKey: .tierPrice)
        quantity = canonical?.tolerantValue(Int32.self, forKey: .quantity)
            ?? typeNamed?.tolerantValue(Int32.self, forKey: .tierQuantity)
    }

    /// What the tier's seats cost, ``price`` × ``quantity``, in milliunits; nil when either is
    /// missing or negative, or when the product does not fit in an `Int64`.
    public var amount: Int64? {
        guard let price, let quantity, price >= 0, quantity >= 0 else { return nil }
        let (product, overflow) = price.multipliedReportingOverflow(by: Int64(quantity))
        return overflow ? nil : product
    }

    /// The sum of the tiers' ``amount``s in milliunits: what a multiseat transaction charged, or
    /// what its next renewal will charge. Nil when the list is empty, when any tier is incomplete
    /// (its ``amount`` is nil), or when the sum does not fit in an `Int64` — never a partial sum.
    public static func totalAmount(of tiers: [MultiSeatPriceTier]) -> Int64? {
        guard !tiers.isEmpty else { return nil }
        var total: Int64 = 0
        for tier in tiers {
            guard let amount = tier.amount else { return nil }
            let (sum, overflow) = total.addingReportingOverflow(amount)
            if overflow { return nil }
            total = sum
        }
        return total
    }
}

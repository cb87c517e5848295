/// The type of offer applied to a transaction or to the next renewal.
public struct OfferType: AppleEnumeration {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let introductoryOffer = Self(rawValue: 1)
    public static let promotionalOffer = Self(rawValue: 2)
    /// A subscription offer code (`subscriptionOfferCode` in older libraries).
    public static let offerCode = Self(rawValue: 3)
    public static let winBackOffer = Self(rawValue: 4)

    /// The documented values, in documentation order.
    public static let knownValues: [Self] = [.introductoryOffer, .promotionalOffer, .offerCode, .winBackOffer]
}

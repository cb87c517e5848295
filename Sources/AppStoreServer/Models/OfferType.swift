/// The type of offer applied to a transaction or to the next renewal.
public struct OfferType: AppleEnumeration {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let introductoryOffer = Self(rawValue: 1)
    public static let promotionalOffer = Self(rawValue: 2)
    /// A subscription offer code (`subscriptionOfferCode` in older libraries).
    public static let offerCode = Self(rawValue: 3)
    public static let winBackOffer = Self(rawValue: 4)
    /// A retention offer Apple chose on the subscription's cancel page (Retention Messaging in App
    /// Store Connect, 2026). Apple's Swift library 6.0.0 does not name it yet.
    public static let retentionOffer = Self(rawValue: 5)

    /// The documented values, in documentation order.
    public static let knownValues: [Self] = [.introductoryOffer, .promotionalOffer, .offerCode, .winBackOffer, .retentionOffer]
}

/// Whether the app delivered the in-app purchase (consumption request V2).
public struct DeliveryStatus: AppleEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Delivered and working properly.
    public static let delivered = Self(rawValue: "DELIVERED")
    public static let undeliveredQualityIssue = Self(rawValue: "UNDELIVERED_QUALITY_ISSUE")
    public static let undeliveredWrongItem = Self(rawValue: "UNDELIVERED_WRONG_ITEM")
    public static let undeliveredServerOutage = Self(rawValue: "UNDELIVERED_SERVER_OUTAGE")
    public static let undeliveredOther = Self(rawValue: "UNDELIVERED_OTHER")

    /// The documented values, in documentation order.
    public static let knownValues: [Self] = [
        .delivered,
        .undeliveredQualityIssue,
        .undeliveredWrongItem,
        .undeliveredServerOutage,
        .undeliveredOther,
    ]
}

/// Why a subscription's renewal date is extended.
public struct ExtendReasonCode: AppleEnumeration {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let undeclared = Self(rawValue: 0)
    public static let customerSatisfaction = Self(rawValue: 1)
    public static let other = Self(rawValue: 2)
    public static let serviceIssueOrOutage = Self(rawValue: 3)

    /// The documented values, in documentation order.
    public static let knownValues: [Self] = [.undeclared, .customerSatisfaction, .other, .serviceIssueOrOutage]
}

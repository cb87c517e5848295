/// The outcome of a performance test.
public struct PerformanceTestStatus: AppleEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let pending = Self(rawValue: "PENDING")
    public static let pass = Self(rawValue: "PASS")
    public static let fail = Self(rawValue: "FAIL")

    public static let knownValues: [Self] = [.pending, .pass, .fail]
}

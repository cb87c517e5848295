/// The platform on which the customer originally purchased the app.
public struct PurchasePlatform: AppleEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let iOS = Self(rawValue: "iOS")
    public static let macOS = Self(rawValue: "macOS")
    public static let tvOS = Self(rawValue: "tvOS")
    public static let visionOS = Self(rawValue: "visionOS")

    /// The documented values, in documentation order.
    public static let knownValues: [Self] = [.iOS, .macOS, .tvOS, .visionOS]
}

/// The App Store environment a payload or API call belongs to.
public struct AppStoreEnvironment: AppleEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let sandbox = Self(rawValue: "Sandbox")
    public static let production = Self(rawValue: "Production")
    public static let xcode = Self(rawValue: "Xcode")
    public static let localTesting = Self(rawValue: "LocalTesting")

    public static let knownValues: [Self] = [.sandbox, .production, .xcode, .localTesting]
}

import AppStoreServer
import Foundation

/// The app the simulated App Store serves: what App Store Connect knows about it.
public struct SimulatorAppConfiguration: Sendable, Hashable, Codable {
    /// The app's bundle identifier (`bid` of API tokens, `bundleId` of every payload).
    public var bundleId: String
    /// The app's Apple ID (`appAppleId`); Apple omits it from Sandbox payloads only when unknown.
    public var appAppleId: Int64?
    /// The app's build version written into notifications' `data.bundleVersion`.
    public var bundleVersion: String
    /// The environment the simulator plays: `Sandbox` or `Production`.
    public var environment: AppStoreEnvironment
    /// Storefront (ISO 3166-1 alpha-3) used when a scenario names none.
    public var defaultStorefront: String
    /// Currency (ISO 4217) used when a scenario names none.
    public var defaultCurrency: String

    /// A configuration for `bundleId` in `environment`.
    public init(
        bundleId: String = "com.example.verdict",
        appAppleId: Int64? = 1_234_567_890,
        bundleVersion: String = "1",
        environment: AppStoreEnvironment = .sandbox,
        defaultStorefront: String = "USA",
        defaultCurrency: String = "USD"
    ) {
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.bundleVersion = bundleVersion
        self.environment = environment
        self.defaultStorefront = defaultStorefront
        self.defaultCurrency = defaultCurrency
    }

    /// The numeric storefront id Apple pairs with a storefront code (a fixed table for the common
    /// ones, a stable made-up number otherwise).
    func storefrontId(for storefront: String) -> String {
        let known = ["USA": "143441", "GBR": "143444", "DEU": "143443", "FRA": "143442", "JPN": "143462",
                     "CAN": "143455", "AUS": "143460", "ITA": "143450", "ESP": "143454", "NLD": "143452"]
        if let id = known[storefront] { return id }
        let sum = storefront.unicodeScalars.reduce(0) { $0 * 31 + Int($1.value) }
        return String(143_000 + sum % 1000)
    }
}

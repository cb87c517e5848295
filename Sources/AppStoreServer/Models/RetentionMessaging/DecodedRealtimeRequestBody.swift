import Foundation

/// What the App Store asks in real time when a customer views a subscription in the App Store's
/// subscription settings (where they may cancel): which retention message to show. Every field
/// is required; a payload missing one is not a realtime request.
public struct DecodedRealtimeRequestBody: Codable, Hashable, Sendable {
    /// The subscription's original transaction identifier.
    public var originalTransactionId: String
    /// The app's App Apple ID; a request naming another app must not be answered.
    public var appAppleId: Int64
    /// The auto-renewable subscription the customer is viewing.
    public var productId: String
    /// The device's locale (`en-US`).
    public var userLocale: String
    /// Unique per request: the idempotency key of the answer.
    public var requestIdentifier: UUID
    /// When the App Store signed the request (milliseconds on the wire).
    public var signedDate: Date
    /// The environment (`Sandbox`, `Production`; unknown values kept).
    public var environment: AppStoreEnvironment

    public init(
        originalTransactionId: String, appAppleId: Int64, productId: String, userLocale: String,
        requestIdentifier: UUID, signedDate: Date, environment: AppStoreEnvironment
    ) {
        self.originalTransactionId = originalTransactionId
        self.appAppleId = appAppleId
        self.productId = productId
        self.userLocale = userLocale
        self.requestIdentifier = requestIdentifier
        self.signedDate = signedDate
        self.environment = environment
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        originalTransactionId = try container.decode(String.self, forKey: .originalTransactionId)
        appAppleId = try container.decode(Int64.self, forKey: .appAppleId)
        productId = try container.decode(String.self, forKey: .productId)
        userLocale = try container.decode(String.self, forKey: .userLocale)
        let identifier = try container.decode(String.self, forKey: .requestIdentifier)
        guard let uuid = UUID(uuidString: identifier) else {
            throw DecodingError.dataCorruptedError(
                forKey: .requestIdentifier, in: container, debugDescription: "requestIdentifier is not a UUID")
        }
        requestIdentifier = uuid
        signedDate = try container.decode(Date.self, forKey: .signedDate)
        environment = try container.decode(AppStoreEnvironment.self, forKey: .environment)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(originalTransactionId, forKey: .originalTransactionId)
        try container.encode(appAppleId, forKey: .appAppleId)
        try container.encode(productId, forKey: .productId)
        try container.encode(userLocale, forKey: .userLocale)
        try container.encode(requestIdentifier.uuidString.lowercased(), forKey: .requestIdentifier)
        try container.encode(signedDate, forKey: .signedDate)
        try container.encode(environment, forKey: .environment)
    }

    private enum CodingKeys: String, CodingKey {
        case originalTransactionId, appAppleId, productId, userLocale, requestIdentifier, signedDate, environment
    }
}

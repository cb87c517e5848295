/// The feature-specific claims of one kind of StoreKit JWS Verdict signs (promotional offer,
/// introductory-offer eligibility), and the audience that names that kind.
///
/// Requirements on the claims (such as a mandatory `transactionId`) are expressed by the type
/// itself: a non-optional property makes a JWS without that claim fail to verify.
public protocol AppStoreJWSFields: Codable, Hashable, Sendable {
    /// The `aud` of this kind of JWS.
    static var audience: String { get }
    /// The names of the feature-specific claims (the common ones are added by ``AppStoreJWSClaims``).
    static var claimNames: Set<String> { get }
}

/// The claims of a StoreKit signed JWS: the common `iss`, `bid`, `aud`, `iat` and `nonce`
/// plus the feature-specific ``fields``, encoded as one flat JSON object.
///
/// The feature-specific claims read as if they were properties of the claims themselves
/// (`claims.productId`). There is deliberately no `exp`: Apple derives the expiry from `iat`.
@dynamicMemberLookup
public struct AppStoreJWSClaims<Fields: AppStoreJWSFields>: Codable, Hashable, Sendable {
    /// The audience of this kind of JWS.
    public static var audience: String { Fields.audience }
    /// Every claim name this kind of JWS may carry.
    static var names: Set<String> { Fields.claimNames.union(["iss", "bid", "aud", "iat", "nonce"]) }

    /// The feature-specific claims.
    public var fields: Fields
    /// The App Store Connect issuer id.
    public var iss: String
    /// The app's bundle identifier.
    public var bid: String
    /// Always ``audience``.
    public var aud: String
    /// Issue time, whole seconds since 1970.
    public var iat: Int64
    /// A one-time UUID in lowercase.
    public var nonce: String

    /// Creates claims with explicit values.
    public init(fields: Fields, iss: String, bid: String, aud: String = Self.audience, iat: Int64, nonce: String) {
        self.fields = fields
        self.iss = iss
        self.bid = bid
        self.aud = aud
        self.iat = iat
        self.nonce = nonce
    }

    /// A feature-specific claim, read or written through ``fields``.
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Fields, Value>) -> Value {
        get { fields[keyPath: keyPath] }
        set { fields[keyPath: keyPath] = newValue }
    }

    private enum CodingKeys: String, CodingKey {
        case iss, bid, aud, iat, nonce
    }

    // The feature-specific claims come first, as they did when each kind declared all its claims
    // itself, so a payload missing several claims is reported by the same (first) one.
    public init(from decoder: any Decoder) throws {
        fields = try Fields(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        iss = try container.decode(String.self, forKey: .iss)
        bid = try container.decode(String.self, forKey: .bid)
        aud = try container.decode(String.self, forKey: .aud)
        iat = try container.decode(Int64.self, forKey: .iat)
        nonce = try container.decode(String.self, forKey: .nonce)
    }

    public func encode(to encoder: any Encoder) throws {
        try fields.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(iss, forKey: .iss)
        try container.encode(bid, forKey: .bid)
        try container.encode(aud, forKey: .aud)
        try container.encode(iat, forKey: .iat)
        try container.encode(nonce, forKey: .nonce)
    }
}

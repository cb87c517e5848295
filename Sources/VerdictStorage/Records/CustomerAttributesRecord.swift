/// The attributes an app backend set for a customer (`PUT /v1/customers/{appAccountToken}/attributes`),
/// as a JSON object already checked against the rule bundle's declared types.
public struct CustomerAttributesRecord: Sendable, Equatable {
    /// Lowercase UUID.
    public var appAccountToken: String
    /// The attributes as one JSON object.
    public var json: String
    public var updatedAt: Int64

    public init(appAccountToken: String, json: String, updatedAt: Int64) {
        self.appAccountToken = appAccountToken
        self.json = json
        self.updatedAt = updatedAt
    }
}

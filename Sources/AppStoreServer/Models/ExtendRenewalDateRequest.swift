/// The body of Extend a Subscription Renewal Date.
public struct ExtendRenewalDateRequest: Codable, Hashable, Sendable {
    /// Days to extend by (at most 90).
    public var extendByDays: Int32?
    public var extendReasonCode: ExtendReasonCode?
    /// A developer-chosen id (at most 128 characters) that makes the request idempotent.
    public var requestIdentifier: String?

    public init(extendByDays: Int32? = nil, extendReasonCode: ExtendReasonCode? = nil, requestIdentifier: String? = nil) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.requestIdentifier = requestIdentifier
    }
}

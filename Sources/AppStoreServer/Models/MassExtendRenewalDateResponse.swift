/// The response of Extend Subscription Renewal Dates for All Active Subscribers.
public struct MassExtendRenewalDateResponse: Codable, Hashable, Sendable {
    /// The request's identifier, echoed back.
    public var requestIdentifier: String?

    public init(requestIdentifier: String? = nil) {
        self.requestIdentifier = requestIdentifier
    }
}

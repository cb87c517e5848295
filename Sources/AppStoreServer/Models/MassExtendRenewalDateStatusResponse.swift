import Foundation

/// The response of Get Status of Subscription Renewal Date Extensions.
public struct MassExtendRenewalDateStatusResponse: Codable, Hashable, Sendable {
    public var requestIdentifier: String?
    /// Whether the mass extension has finished.
    public var complete: Bool?
    /// When it finished.
    public var completeDate: Date?
    public var succeededCount: Int64?
    public var failedCount: Int64?

    public init(
        requestIdentifier: String? = nil,
        complete: Bool? = nil,
        completeDate: Date? = nil,
        succeededCount: Int64? = nil,
        failedCount: Int64? = nil
    ) {
        self.requestIdentifier = requestIdentifier
        self.complete = complete
        self.completeDate = completeDate
        self.succeededCount = succeededCount
        self.failedCount = failedCount
    }
}

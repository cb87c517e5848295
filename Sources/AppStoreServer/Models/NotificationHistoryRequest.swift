import Foundation

/// The JSON body of Get Notification History (`POST /inApps/v1/notifications/history`).
///
/// Send the same body with each `paginationToken`. Filter by `transactionId` or by
/// `notificationType`, not both (4000019); `notificationSubtype` needs its `notificationType`.
public struct NotificationHistoryRequest: Codable, Hashable, Sendable {
    /// Start of the range (inclusive, ms on the wire); at most 180 days in the past.
    public var startDate: Date?
    /// End of the range (exclusive, ms on the wire); must be after `startDate`.
    public var endDate: Date?
    public var notificationType: NotificationTypeV2?
    public var notificationSubtype: Subtype?
    /// Only notifications about this transaction (any of the customer's transaction ids).
    public var transactionId: String?
    /// Only notifications that have not reached your server (including ones being retried).
    public var onlyFailures: Bool?

    public init(
        startDate: Date? = nil,
        endDate: Date? = nil,
        notificationType: NotificationTypeV2? = nil,
        notificationSubtype: Subtype? = nil,
        transactionId: String? = nil,
        onlyFailures: Bool? = nil
    ) {
        self.startDate = startDate
        self.endDate = endDate
        self.notificationType = notificationType
        self.notificationSubtype = notificationSubtype
        self.transactionId = transactionId
        self.onlyFailures = onlyFailures
    }
}

/// The App Store Server API endpoints the simulator serves; rate limits and faults are configured
/// per endpoint.
public enum SimulatorEndpoint: String, Sendable, Hashable, Codable, CaseIterable {
    /// `GET /inApps/v1/transactions/{transactionId}`
    case getTransactionInfo
    /// `GET /inApps/v2/history/{transactionId}`
    case getTransactionHistory
    /// `GET /inApps/v1/subscriptions/{transactionId}`
    case getAllSubscriptionStatuses
    /// `GET /inApps/v2/refund/lookup/{transactionId}`
    case getRefundHistory
    /// `PUT /inApps/v2/transactions/consumption/{transactionId}`
    case sendConsumptionInformation
    /// `POST /inApps/v1/notifications/history`
    case getNotificationHistory
    /// `POST /inApps/v1/notifications/test`
    case requestTestNotification
    /// `GET /inApps/v1/notifications/test/{testNotificationToken}`
    case getTestNotificationStatus

    /// Apple's documented production limit in requests per second (enforced per hour).
    public var appleRequestsPerSecond: Int {
        switch self {
        case .getTransactionInfo, .getTransactionHistory, .getAllSubscriptionStatuses,
             .sendConsumptionInformation, .getNotificationHistory: 50
        case .getRefundHistory: 10
        case .requestTestNotification, .getTestNotificationStatus: 1
        }
    }
}

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
    /// `PUT /inApps/v1/transactions/consumption/{transactionId}`
    case sendConsumptionInformationV1
    /// `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken`
    case setAppAccountToken
    /// `POST /inApps/v1/notifications/history`
    case getNotificationHistory
    /// `POST /inApps/v1/notifications/test`
    case requestTestNotification
    /// `GET /inApps/v1/notifications/test/{testNotificationToken}`
    case getTestNotificationStatus
    /// `PUT /inApps/v1/messaging/message/{messageIdentifier}`
    case uploadMessage
    /// `DELETE /inApps/v1/messaging/message/{messageIdentifier}`
    case deleteMessage
    /// `GET /inApps/v1/messaging/message/list`
    case getMessageList
    /// `PUT /inApps/v1/messaging/image/{imageIdentifier}`
    case uploadImage
    /// `DELETE /inApps/v1/messaging/image/{imageIdentifier}`
    case deleteImage
    /// `GET /inApps/v1/messaging/image/list`
    case getImageList
    /// `PUT /inApps/v1/messaging/default/{productId}/{locale}`
    case configureDefaultMessage
    /// `GET /inApps/v1/messaging/default/{productId}/{locale}`
    case getDefaultMessage
    /// `DELETE /inApps/v1/messaging/default/{productId}/{locale}`
    case deleteDefaultMessage
    /// `PUT /inApps/v1/messaging/realtime/url`
    case configureRealtimeURL
    /// `GET /inApps/v1/messaging/realtime/url`
    case getRealtimeURL
    /// `DELETE /inApps/v1/messaging/realtime/url`
    case deleteRealtimeURL
    /// `POST /inApps/v1/messaging/performanceTest`
    case initiatePerformanceTest
    /// `GET /inApps/v1/messaging/performanceTest/result/{requestId}`
    case getPerformanceTestResult

    /// Apple's documented production limit in requests per second (enforced per hour).
    public var appleRequestsPerSecond: Int {
        switch self {
        case .getTransactionInfo, .getTransactionHistory, .getAllSubscriptionStatuses,
             .sendConsumptionInformation, .sendConsumptionInformationV1, .setAppAccountToken,
             .getNotificationHistory: 50
        case .getRefundHistory: 10
        case .requestTestNotification, .getTestNotificationStatus: 1
        case .configureDefaultMessage: 10
        case .uploadMessage, .deleteMessage, .getMessageList, .uploadImage, .deleteImage, .getImageList,
             .getDefaultMessage, .deleteDefaultMessage, .configureRealtimeURL, .getRealtimeURL, .deleteRealtimeURL,
             .initiatePerformanceTest, .getPerformanceTestResult: 1
        }
    }
}

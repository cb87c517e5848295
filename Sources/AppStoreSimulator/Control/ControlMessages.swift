import AppStoreServer
import Foundation

/// JSON bodies of the control API (`/simulator/…`). Dates are integer milliseconds since 1970.
enum ControlMessages {
    struct Overview: Encodable {
        let bundleId: String
        let appAppleId: Int64?
        let bundleVersion: String
        let environment: AppStoreEnvironment
        let keyId: String
        let issuerId: String
        let baseURL: String?
        let now: Date
        let clockFrozen: Bool
        let deliveryURL: String?
        let retryPolicy: DeliveryRetryPolicy
        let tokenClock: SimulatorServer.TokenClock
        /// Every served bundle id, the default app first.
        let apps: [String]
    }

    /// One entry of `GET /simulator/apps`.
    struct App: Encodable {
        let bundleId: String
        let appAppleId: Int64?
        let environment: AppStoreEnvironment
        let keyId: String
        let issuerId: String
        let deliveryURL: String?
    }

    struct Key: Encodable {
        let keyId: String
        let issuerId: String
        let bundleId: String
        let fileName: String
        let privateKeyPEM: String
    }

    struct RootCertificate: Encodable {
        let rootCertificateDER: String
    }

    struct Delivery: Codable {
        var url: String?
        var retryPolicy: DeliveryRetryPolicy?
    }

    struct Clock: Codable {
        var now: Date?
        var frozen: Bool?
    }

    struct Advance: Decodable {
        let seconds: TimeInterval
    }

    struct TokenClockSetting: Codable {
        let tokenClock: SimulatorServer.TokenClock
    }

    struct Renew: Decodable {
        let originalTransactionId: String
        let price: Int64?
    }

    struct AutoRenew: Decodable {
        let originalTransactionId: String
        let enabled: Bool
    }

    /// `POST /simulator/scenarios/view-subscription`.
    struct ViewSubscription: Decodable {
        let originalTransactionId: String
        let userLocale: String?
    }

    struct FailRenewal: Decodable {
        let originalTransactionId: String
        let gracePeriod: SubscriptionPeriod?
    }

    struct Expire: Decodable {
        let originalTransactionId: String
        let subtype: Subtype?
        let eligibleWinBackOfferIds: [String]?
    }

    struct Resubscribe: Decodable {
        let originalTransactionId: String
        let productId: String?
        let price: Int64?
        let offer: SimulatedOffer?
    }

    struct ChangeProduct: Decodable {
        let originalTransactionId: String
        let productId: String
        let upgrade: Bool?
    }

    struct RedeemOffer: Decodable {
        let originalTransactionId: String
        let offer: SimulatedOffer
    }

    struct RefundRequest: Decodable {
        let transactionId: String
        let reason: ConsumptionRequestReason?
    }

    struct RefundGrant: Decodable {
        let transactionId: String
        let reason: RevocationReason?
        let type: RevocationType?
        let percentage: Int32?
    }

    struct TransactionReference: Decodable {
        let transactionId: String
    }

    /// `POST /simulator/scenarios/add-seats` and `reduce-seats`.
    struct SeatChange: Decodable {
        let originalTransactionId: String
        let seats: Int32
        let notificationType: NotificationTypeV2?
    }

    /// `POST /simulator/scenarios/refund-seats`.
    struct RefundSeats: Decodable {
        let transactionId: String
        let seats: Int32
        let reason: RevocationReason?
    }

    /// `POST /simulator/scenarios/assign-member`.
    struct AssignMember: Decodable {
        let purchaserOriginalTransactionId: String
        let appTransactionId: String?
        let appAccountToken: UUID?
    }

    /// `POST /simulator/scenarios/revoke-member`.
    struct RevokeMember: Decodable {
        let memberOriginalTransactionId: String
    }

    /// `POST /simulator/scenarios/unclaim-seats`.
    struct UnclaimSeats: Decodable {
        let originalTransactionId: String
        let seatIds: [String]
        let data: NotificationDataContent?
    }

    struct TestNotification: Encodable {
        let testNotificationToken: String
        let notification: SimulatedNotification
    }

    struct Subscription: Encodable {
        let originalTransactionId: String
        let status: SubscriptionStatus?
        let renewalInfo: JWSRenewalInfoDecodedPayload?
        let latestTransaction: JWSTransactionDecodedPayload?
        /// The original transaction ids of the group's members (`ASSIGNED` subscriptions).
        let memberOriginalTransactionIds: [String]
    }

    struct Failure: Encodable {
        let error: String
    }
}

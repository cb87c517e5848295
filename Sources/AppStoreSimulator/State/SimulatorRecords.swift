import AppStoreServer
import Foundation

/// A customer of the simulated app: one Apple Account (or family member) that downloaded it.
public struct SimulatedCustomer: Sendable, Hashable, Codable {
    /// The app-download transaction id, unique per customer and app (`appTransactionId`).
    public let appTransactionId: String
    /// The token the app attached to purchases (`appAccountToken`), if any.
    public var appAccountToken: UUID?
}

/// One auto-renewable subscription of one customer, keyed by its original transaction id.
struct SubscriptionRecord: Sendable {
    let originalTransactionId: String
    let appTransactionId: String
    var productId: String
    var subscriptionGroupIdentifier: String
    var period: SubscriptionPeriod
    /// The regular (non-offer) price per period, milliunits.
    var price: Int64
    var currency: String
    var storefront: String
    var appAccountToken: UUID?
    var inAppOwnershipType: InAppOwnershipType
    var autoRenewStatus: AutoRenewStatus
    var autoRenewProductId: String
    var expiresDate: Date
    var state: SubscriptionStatus
    var expirationIntent: ExpirationIntent?
    var isInBillingRetryPeriod: Bool
    var gracePeriodExpiresDate: Date?
    var eligibleWinBackOfferIds: [String]?
    /// The offer that applies to the next renewal (renewal info's offer fields), with the number
    /// of periods it still covers.
    var nextOffer: SimulatedOffer?
    var nextOfferRemainingPeriods: Int
    var recentSubscriptionStartDate: Date
    /// Transaction ids of this subscription, oldest first.
    var transactionIds: [String]
    /// The seats of a multiseat purchase, on the group purchaser's record; nil otherwise.
    var seats: SeatState?
    /// On a group member's `ASSIGNED` subscription, the group purchaser's original transaction id.
    var purchaserOriginalTransactionId: String?
    /// The billing commitment of a monthly plan; nil otherwise.
    var commitment: CommitmentState?

    var latestTransactionId: String { transactionIds[transactionIds.count - 1] }

    /// Revokes the subscription (status 5): auto-renew off, expiration intent `other`.
    mutating func revoke() {
        state = .revoked
        autoRenewStatus = .off
        expirationIntent = .other
    }

    /// The price of the next period: the pending offer's price, else the regular price.
    var renewalPrice: Int64 {
        if let offer = nextOffer, nextOfferRemainingPeriods > 0 { return offer.price ?? price }
        return price
    }
}

/// A transaction as stored: the payload without `signedDate` (set when signed), plus the position
/// in Apple's "recently modified" order that history paging follows.
struct TransactionRecord: Sendable {
    var payload: JWSTransactionDecodedPayload
    var modification: UInt64
    var createdSequence: UInt64
}

/// One attempt to deliver a notification to the configured URL.
public struct NotificationSendAttempt: Sendable, Hashable, Codable {
    /// When the attempt was made, in simulated time (first attempt at the notification's
    /// `signedDate`, each retry the scheduled interval after the previous one).
    public let attemptDate: Date
    /// Apple's classification of the outcome.
    public let sendAttemptResult: SendAttemptResult
    /// The HTTP status the receiver answered, when it answered.
    public let httpStatus: Int?
    /// The URL the attempt went to.
    public let url: String

    /// An attempt record.
    public init(attemptDate: Date, sendAttemptResult: SendAttemptResult, httpStatus: Int? = nil, url: String) {
        self.attemptDate = attemptDate
        self.sendAttemptResult = sendAttemptResult
        self.httpStatus = httpStatus
        self.url = url
    }
}

/// A signed App Store Server Notification V2 the simulator produced, with its delivery record.
public struct SimulatedNotification: Sendable, Hashable, Codable {
    /// `notificationUUID` of the payload.
    public let notificationUUID: String
    /// `notificationType` of the payload.
    public let notificationType: NotificationTypeV2
    /// `subtype` of the payload, if any.
    public let subtype: Subtype?
    /// The JWS that is POSTed as `{"signedPayload": …}`.
    public let signedPayload: String
    /// The decoded payload (what `signedPayload` says).
    public let payload: ResponseBodyV2DecodedPayload
    /// `signedDate` of the payload.
    public let signedDate: Date
    /// The transaction the notification is about, if any.
    public let transactionId: String?
    /// Its original transaction id, if any.
    public let originalTransactionId: String?
    /// The customer the notification is about, if any.
    public let appTransactionId: String?
    /// Every delivery attempt so far, oldest first.
    public internal(set) var sendAttempts: [NotificationSendAttempt]
    /// Whether the deliverer still plans another attempt.
    public internal(set) var isRetryPending: Bool

    /// Whether some attempt reached the server with a 2xx (200–206) answer.
    public var wasDelivered: Bool { sendAttempts.contains { $0.sendAttemptResult == .success } }
}

/// A Send Consumption Information body the simulated App Store accepted (202).
public struct ReceivedConsumptionInformation: Sendable, Hashable, Codable {
    /// The transaction id from the request path.
    public let transactionId: String
    /// The decoded body.
    public let request: ConsumptionRequest
    /// The body exactly as received.
    public let rawBody: String
    /// When it arrived (simulated time).
    public let receivedDate: Date
}

/// A Send Consumption Information V1 body the simulated App Store accepted (202).
public struct ReceivedConsumptionInformationV1: Sendable, Hashable, Codable {
    /// The transaction id from the request path.
    public let transactionId: String
    /// The body exactly as received.
    public let rawBody: String
    /// When it arrived (simulated time).
    public let receivedDate: Date
}

/// A Send Consumption Information body the simulated App Store rejected with an Apple error (the
/// endpoint's own 400/404 answers; not injected faults, token rejections or rate limits).
public struct RejectedConsumptionInformation: Sendable, Hashable, Codable {
    /// The transaction id from the request path, as sent.
    public let transactionId: String
    /// The body exactly as received.
    public let rawBody: String
    /// The HTTP status answered (400 or 404).
    public let httpStatus: Int
    /// Apple's `errorCode` in the answer, e.g. 4000035 (nil: answered without a body).
    public let errorCode: Int64?
    /// Apple's `errorMessage` in the answer.
    public let errorMessage: String?
    /// When it arrived (simulated time).
    public let receivedDate: Date
}

/// A refund the customer requested and what became of it.
public struct SimulatedRefundRequest: Sendable, Hashable, Codable {
    /// What happened to a refund request.
    public enum Outcome: String, Sendable, Hashable, Codable {
        case pending, granted, declined, reversed
    }

    /// The transaction to refund.
    public let transactionId: String
    /// The customer's stated reason.
    public let reason: ConsumptionRequestReason
    /// When the request was made.
    public let requestDate: Date
    /// Current outcome.
    public internal(set) var outcome: Outcome
}

/// Errors of scenario operations (bad input or an operation that makes no sense in the current state).
public enum SimulatorError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No transaction with this id exists.
    case unknownTransaction(String)
    /// No subscription with this original transaction id exists.
    case unknownSubscription(String)
    /// No customer with this app transaction id exists.
    case unknownCustomer(String)
    /// The operation does not apply in the current state.
    case invalidState(String)
    /// The request itself is malformed.
    case invalidRequest(String)

    public var description: String {
        switch self {
        case .unknownTransaction(let id): "unknown transaction \(id)"
        case .unknownSubscription(let id): "unknown subscription (original transaction id \(id))"
        case .unknownCustomer(let id): "unknown customer (app transaction id \(id))"
        case .invalidState(let message): "invalid state: \(message)"
        case .invalidRequest(let message): "invalid request: \(message)"
        }
    }
}

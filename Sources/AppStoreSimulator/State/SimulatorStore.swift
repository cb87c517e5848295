import AppStoreServer
import Foundation

/// The simulated App Store's state: the app, the issued In-App Purchase key, customers,
/// subscriptions, transactions, refunds, the notification log with every send attempt, and the
/// consumption information Apple "received" (accepted and rejected).
///
/// Scenario operations (`subscribe`, `renew`, `expire`, `grantRefund`, …, in extensions) change
/// the state the way the App Store would and produce the exact signed notification Apple sends,
/// which is logged and handed to the notification sink (normally a ``NotificationDeliverer``).
/// Ids come from one counter and all dates from the injectable ``clock``, so a test that replays
/// the same operations sees the same ids.
public actor SimulatorStore {
    /// The app the simulator serves.
    public nonisolated let configuration: SimulatorAppConfiguration
    /// The certificate hierarchy whose leaf signs every JWS.
    public nonisolated let pki: SimulatorPKI
    /// Signs payloads with the PKI's leaf.
    public nonisolated let signer: AppStoreSigner
    /// The key API clients must sign their bearer tokens with.
    public nonisolated let issuedKey: IssuedInAppPurchaseKey
    /// The simulated "now".
    public nonisolated let clock: SimulatorClock

    var ids: IdentifierGenerator
    var customers: [String: SimulatedCustomer] = [:]
    var customerOrder: [String] = []
    var subscriptions: [String: SubscriptionRecord] = [:]
    var transactions: [String: TransactionRecord] = [:]
    var sequence: UInt64 = 0
    var notifications: [SimulatedNotification] = []
    var notificationIndex: [String: Int] = [:]
    var testNotificationTokens: [String: String] = [:]
    var consumptionInformation: [ReceivedConsumptionInformation] = []
    var consumptionInformationV1: [ReceivedConsumptionInformationV1] = []
    var rejectedConsumption: [RejectedConsumptionInformation] = []
    var refundRequests: [String: SimulatedRefundRequest] = [:]
    var messaging = SimulatedMessaging()
    var notificationSink: (@Sendable (SimulatedNotification) async -> Void)?

    /// A store for `configuration`, signing with `pki`, accepting tokens signed with `issuedKey`.
    /// `seed` varies the notification UUID stream (ids stay counter-based).
    public init(
        configuration: SimulatorAppConfiguration = SimulatorAppConfiguration(),
        pki: SimulatorPKI,
        issuedKey: IssuedInAppPurchaseKey = .issue(),
        clock: SimulatorClock = SimulatorClock(),
        seed: String = "verdict-simulator"
    ) {
        self.configuration = configuration
        self.pki = pki
        self.signer = pki.signer()
        self.issuedKey = issuedKey
        self.clock = clock
        self.ids = IdentifierGenerator(seed: seed)
    }

    /// The simulated current time.
    public nonisolated var now: Date { clock.now }

    /// Sets the closure every new notification is handed to (nil: notifications are only logged).
    public func setNotificationSink(_ sink: (@Sendable (SimulatedNotification) async -> Void)?) {
        notificationSink = sink
    }

    /// Moves the ids this store issues from now on into `namespace`'s block (see
    /// `IdentifierGenerator`), so apps sharing one ``SimulatorServer`` never issue the same
    /// transaction id or notification UUID. The server sets its n-th app's namespace to n − 1.
    func setIdentifierNamespace(_ namespace: Int) {
        ids.namespace = UInt64(namespace)
    }

    // MARK: - Reading state

    /// Every notification produced so far, oldest first, with its send attempts.
    public func notificationLog() -> [SimulatedNotification] { notifications }

    /// The notification with this UUID.
    public func notification(uuid: String) -> SimulatedNotification? {
        notificationIndex[uuid].map { notifications[$0] }
    }

    /// Every consumption information body accepted, oldest first.
    public func receivedConsumptionInformation() -> [ReceivedConsumptionInformation] { consumptionInformation }

    /// Every Send Consumption Information V1 body accepted, oldest first.
    public func receivedConsumptionInformationV1() -> [ReceivedConsumptionInformationV1] { consumptionInformationV1 }

    /// Every consumption information body rejected with an Apple error, oldest first.
    public func rejectedConsumptionInformation() -> [RejectedConsumptionInformation] { rejectedConsumption }

    /// Every customer, in creation order.
    public func allCustomers() -> [SimulatedCustomer] { customerOrder.compactMap { customers[$0] } }

    /// Refund requests by transaction id.
    public func refundRequest(transactionId: String) -> SimulatedRefundRequest? { refundRequests[transactionId] }

    /// The stored transaction (without `signedDate`).
    public func transaction(id: String) -> JWSTransactionDecodedPayload? { transactions[id]?.payload }

    /// The current renewal info of a subscription (with `signedDate` = now).
    public func renewalInfo(originalTransactionId: String) -> JWSRenewalInfoDecodedPayload? {
        subscriptions[originalTransactionId].map(renewalInfo(for:))
    }

    /// The latest transaction of a subscription (without `signedDate`).
    public func latestTransaction(originalTransactionId: String) -> JWSTransactionDecodedPayload? {
        subscriptions[originalTransactionId].flatMap { transactions[$0.latestTransactionId]?.payload }
    }

    /// The status of a subscription now.
    public func status(originalTransactionId: String) -> SubscriptionStatus? {
        subscriptions[originalTransactionId]?.state
    }

    // MARK: - Recording (used by the deliverer and the API)

    /// Appends a delivery attempt to a notification's record.
    public func recordSendAttempt(_ attempt: NotificationSendAttempt, notificationUUID: String, retryPending: Bool) {
        guard let index = notificationIndex[notificationUUID] else { return }
        notifications[index].sendAttempts.append(attempt)
        notifications[index].isRetryPending = retryPending
    }

    func recordConsumption(_ information: ReceivedConsumptionInformation) {
        consumptionInformation.append(information)
    }

    func recordConsumptionV1(_ information: ReceivedConsumptionInformationV1) {
        consumptionInformationV1.append(information)
    }

    func recordRejectedConsumption(_ information: RejectedConsumptionInformation) {
        rejectedConsumption.append(information)
    }

    // MARK: - Building blocks for scenarios

    func nextSequence() -> UInt64 {
        sequence += 1
        return sequence
    }

    /// The customer `appTransactionId`, or a new one when nil.
    func customer(_ appTransactionId: String?, appAccountToken: UUID?) throws -> SimulatedCustomer {
        if let appTransactionId {
            guard var existing = customers[appTransactionId] else {
                throw SimulatorError.unknownCustomer(appTransactionId)
            }
            if let appAccountToken, existing.appAccountToken == nil {
                existing.appAccountToken = appAccountToken
                customers[appTransactionId] = existing
            }
            return existing
        }
        let customer = SimulatedCustomer(appTransactionId: ids.appTransactionId(), appAccountToken: appAccountToken)
        customers[customer.appTransactionId] = customer
        customerOrder.append(customer.appTransactionId)
        return customer
    }

    /// Stores a new transaction.
    func insert(_ payload: JWSTransactionDecodedPayload) {
        let order = nextSequence()
        transactions[payload.transactionId!] = TransactionRecord(payload: payload, modification: order,
                                                                 createdSequence: order)
    }

    /// Changes a stored transaction and moves it to the end of the "recently modified" order.
    func modifyTransaction(_ id: String, _ change: (inout JWSTransactionDecodedPayload) -> Void) throws {
        guard var record = transactions[id] else { throw SimulatorError.unknownTransaction(id) }
        change(&record.payload)
        record.modification = nextSequence()
        transactions[id] = record
    }

    func subscription(_ originalTransactionId: String) throws -> SubscriptionRecord {
        guard let record = subscriptions[originalTransactionId] else {
            throw SimulatorError.unknownSubscription(originalTransactionId)
        }
        return record
    }

    /// The transaction signed now.
    func signedTransaction(_ id: String) throws -> String {
        guard var payload = transactions[id]?.payload else { throw SimulatorError.unknownTransaction(id) }
        payload.signedDate = now
        return try signer.sign(payload)
    }

    /// The renewal info of `record` as of now (with its seats and commitment, if any).
    func renewalInfo(for record: SubscriptionRecord) -> JWSRenewalInfoDecodedPayload {
        let offer = record.nextOfferRemainingPeriods > 0 ? record.nextOffer : nil
        let isCurrent = record.state == .active || record.state == .billingGracePeriod
            || record.state == .billingRetry
        var info = JWSRenewalInfoDecodedPayload(
            expirationIntent: record.expirationIntent,
            originalTransactionId: record.originalTransactionId,
            autoRenewProductId: record.autoRenewProductId,
            productId: record.productId,
            autoRenewStatus: record.autoRenewStatus,
            isInBillingRetryPeriod: record.isInBillingRetryPeriod,
            priceIncreaseStatus: nil,
            gracePeriodExpiresDate: record.gracePeriodExpiresDate,
            offerType: offer?.type,
            offerIdentifier: offer?.identifier,
            signedDate: now,
            environment: configuration.environment,
            recentSubscriptionStartDate: record.recentSubscriptionStartDate,
            renewalDate: isCurrent ? record.expiresDate : nil,
            currency: record.currency,
            renewalPrice: record.renewalPrice,
            offerDiscountType: offer?.discountType,
            eligibleWinBackOfferIds: record.state == .expired ? record.eligibleWinBackOfferIds : nil,
            appAccountToken: record.appAccountToken,
            appTransactionId: record.appTransactionId,
            offerPeriod: offer.map { $0.offerPeriod(regular: record.period) }
        )
        applySeatRenewal(to: &info, record: record)
        applyCommitmentRenewal(to: &info, record: record)
        return info
    }

    /// Signs and logs a notification and hands it to the sink; returns it with the decoded
    /// transaction and renewal info it carries. `withData: false` leaves out `data` (and with it
    /// the transaction and renewal info); `unclaimInfo` is written at the top level.
    func publish(
        _ type: NotificationTypeV2,
        _ subtype: Subtype? = nil,
        transactionId: String? = nil,
        subscription: SubscriptionRecord? = nil,
        consumptionRequestReason: ConsumptionRequestReason? = nil,
        withData: Bool = true,
        unclaimInfo: UnclaimInfo? = nil
    ) async throws -> ScenarioResult {
        let signedDate = now
        var transaction: JWSTransactionDecodedPayload?
        if withData, let transactionId {
            transaction = transactions[transactionId]?.payload
            transaction?.signedDate = signedDate
        }
        let renewal = withData ? subscription.map(renewalInfo(for:)) : nil
        var data: NotificationData?
        if withData {
            data = NotificationData(
                environment: configuration.environment,
                appAppleId: configuration.appAppleId,
                bundleId: configuration.bundleId,
                bundleVersion: configuration.bundleVersion,
                signedTransactionInfo: try transaction.map { try signer.sign($0) },
                signedRenewalInfo: try renewal.map { try signer.sign($0) },
                status: subscription?.state,
                consumptionRequestReason: consumptionRequestReason
            )
        }
        let payload = ResponseBodyV2DecodedPayload(
            notificationType: type,
            subtype: subtype,
            notificationUUID: ids.uuid(),
            data: data,
            version: "2.0",
            signedDate: signedDate,
            unclaimInfo: unclaimInfo
        )
        let notification = SimulatedNotification(
            notificationUUID: payload.notificationUUID!,
            notificationType: type,
            subtype: subtype,
            signedPayload: try signer.sign(payload),
            payload: payload,
            signedDate: signedDate,
            transactionId: transaction?.transactionId,
            originalTransactionId: transaction?.originalTransactionId,
            appTransactionId: transaction?.appTransactionId,
            sendAttempts: [],
            isRetryPending: false
        )
        notificationIndex[notification.notificationUUID] = notifications.count
        notifications.append(notification)
        if let notificationSink { await notificationSink(notification) }
        return ScenarioResult(notification: notification, transaction: transaction, renewalInfo: renewal)
    }
}

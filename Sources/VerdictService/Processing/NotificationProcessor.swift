import AppStoreServer
import Foundation
import Logging
import VerdictStorage

/// The `process-notification` job: records the notification's transaction and renewal info
/// (moving state forward only in `signedDate`) and links the customer's identifiers — one
/// repository call, ``TransactionStore/recordNotificationState(_:)`` — asks for a
/// history sync of a customer seen for the first time, and runs the registered handlers for the
/// notification's type (or subtype, ``NotificationHandler/subtypes``). `TEST` notifications are
/// recorded and acknowledged, nothing more.
///
/// **History before the first decision.** When a handler decides on the customer's history
/// (``NotificationHandler/decidesOnHistory(_:)``: an offer trigger, a refund request) and that
/// customer's history was never read to its last page, the job waits — requeued without using up
/// attempts, woken by the sync's completion (``JobStore/wakeNotificationJobs(originalTransactionId:now:)``)
/// or at the latest after ``historyPollMilliseconds`` — until the sync completed or `historyWait`
/// has passed since the notification arrived; then it decides either way, and the decision records
/// whether the history was complete (`customer.historyComplete`).
///
/// **One decode per payload.** The job decodes the stored content once
/// (``StoredNotificationContent/read(_:)``), stores the nested payloads' JSON as Apple signed it
/// (no encoding), and hands the decoded payloads to the handlers (``DecodedPayloads``), whose
/// deciders take them instead of decoding the same stored text again. The whole path and its
/// count are on ``StoredNotificationContent``.
public struct NotificationProcessor: JobHandler {
    public let kind = NotificationIntake.processingJobKind
    /// How often a waiting decision looks again for the customer's history when nothing wakes it.
    static let historyPollMilliseconds: Int64 = 1_000

    /// The stores processing reads and writes.
    public typealias Stores = CustomerStore & JobStore & NotificationStore & TransactionStore

    let repository: any Stores
    let handlers: [any NotificationHandler]
    let historySync: Bool
    /// The longest a decision waits for a first history sync (ms); 0 decides at once.
    let historyWait: Int64
    let now: @Sendable () -> Date

    public init(repository: any Stores, handlers: [any NotificationHandler], historySync: Bool,
                historyWait: Int64 = 30_000, now: @escaping @Sendable () -> Date = { Date() }) {
        self.repository = repository
        self.handlers = handlers
        self.historySync = historySync
        self.historyWait = historyWait
        self.now = now
    }

    /// The processing result stored with the notification.
    struct Result: Codable {
        var notificationType: String
        var transactionRecorded: Bool?
        var renewalInfoRecorded: Bool?
        var historySyncRequested: Bool?
        var handlers: [String: String]?
    }

    public func run(_ job: JobRecord, logger: Logger) async throws -> String? {
        guard let uuid = job.job.notificationUUID, let record = try await repository.notification(uuid: uuid) else {
            throw JobFailure.permanent("the job names no stored notification")
        }
        let content: StoredNotificationContent
        let decoded: DecodedPayloads
        do {
            (content, decoded) = try StoredNotificationContent.read(record.notification.decodedJSON)
        } catch {
            throw JobFailure.permanent("the stored notification content cannot be decoded")
        }
        var result = Result(notificationType: record.notification.notificationType)
        var state = NotificationState(
            transaction: decoded.transaction.flatMap { TransactionRecord($0.payload, json: $0.json) },
            renewalInfo: decoded.renewalInfo.flatMap { RenewalInfoRecord($0.payload, json: $0.json) })
        if let originalTransactionId = content.originalTransactionId {
            state.customer = CustomerLink(
                originalTransactionId: originalTransactionId,
                appAccountToken: (content.transaction?.appAccountToken ?? content.renewalInfo?.appAccountToken)?.uuidString.lowercased(),
                appTransactionId: content.transaction?.appTransactionId ?? content.renewalInfo?.appTransactionId,
                environment: record.notification.environment,
                seenAt: record.notification.signedDate
            )
        }
        let recorded = try await repository.recordNotificationState(state)
        result.transactionRecorded = recorded.transactionRecorded
        result.renewalInfoRecorded = recorded.renewalInfoRecorded
        if historySync, let customer = state.customer, recorded.historyRevision == nil {
            let at = now().appStoreMilliseconds
            let sync = try await repository.enqueue(HistorySyncJob.job(
                originalTransactionId: customer.originalTransactionId, environment: record.notification.environment, at: at
            ))
            result.historySyncRequested = sync.created
            if !sync.created, let shared = sync.traceParent { SharedWorkSpan.link("history sync", to: shared) }
        }
        let processed = ProcessedNotification(record: record, content: content, decoded: decoded)
        let event = processed.event
        let active = handlers.filter { $0.handles(event) }
        if historySync, let customer = state.customer, active.contains(where: { $0.decidesOnHistory(processed) }) {
            try await waitForHistory(customer.originalTransactionId, receivedAt: record.notification.receivedAt)
        }
        var outputs: [String: String] = [:]
        for handler in active {
            outputs[handler.name] = try await handler.handle(processed, logger: logger) ?? ""
        }
        result.handlers = outputs.isEmpty ? nil : outputs
        return String(decoding: try JSONEncoder.service.encode(result), as: UTF8.self)
    }

    /// Returns when the customer's history is complete or the wait is over; otherwise throws
    /// ``JobFailure/waiting(delayMilliseconds:_:)`` to run again shortly.
    private func waitForHistory(_ originalTransactionId: String, receivedAt: Int64) async throws {
        guard try await repository.customer(originalTransactionId: originalTransactionId)?.historySyncedAt == nil else { return }
        let remaining = receivedAt + historyWait - now().appStoreMilliseconds
        guard remaining > 0 else { return }
        throw JobFailure.waiting(
            delayMilliseconds: min(remaining, Self.historyPollMilliseconds),
            "waiting up to \(historyWait / 1000) s for the customer's App Store history before deciding")
    }
}

extension TransactionRecord {
    /// The storage record of a verified transaction (nil without the ids storage needs). `json`
    /// is the JSON it was decoded from — Apple's verified bytes — stored as it is; only without
    /// it is the model encoded.
    public init?(_ transaction: JWSTransactionDecodedPayload, json: String?) {
        guard let id = transaction.transactionId, let original = transaction.originalTransactionId,
              let signedDate = transaction.signedDate,
              let json = json ?? (try? AppStoreJSON.encoder().encode(transaction)).map({ String(decoding: $0, as: UTF8.self) })
        else { return nil }
        self.init(
            transactionId: id, originalTransactionId: original, productId: transaction.productId ?? "",
            appAccountToken: transaction.appAccountToken?.uuidString.lowercased(), environment: transaction.environment?.rawValue,
            purchaseDate: transaction.purchaseDate?.appStoreMilliseconds,
            revocationDate: transaction.revocationDate?.appStoreMilliseconds,
            signedDate: signedDate.appStoreMilliseconds, decodedJSON: json
        )
    }

    /// The verified transaction this record stores.
    func payload(_ decoder: JSONDecoder = AppStoreJSON.decoder()) throws -> JWSTransactionDecodedPayload {
        try decoder.decode(JWSTransactionDecodedPayload.self, from: Data(decodedJSON.utf8))
    }
}

extension RenewalInfoRecord {
    /// The storage record of verified renewal info (nil without the ids storage needs), storing
    /// `json` — the JSON it was decoded from — as it is; only without it is the model encoded.
    public init?(_ renewalInfo: JWSRenewalInfoDecodedPayload, json: String?) {
        guard let original = renewalInfo.originalTransactionId, let signedDate = renewalInfo.signedDate,
              let json = json ?? (try? AppStoreJSON.encoder().encode(renewalInfo)).map({ String(decoding: $0, as: UTF8.self) })
        else { return nil }
        self.init(
            originalTransactionId: original, productId: renewalInfo.productId,
            autoRenewStatus: renewalInfo.autoRenewStatus.map { Int($0.rawValue) }, environment: renewalInfo.environment?.rawValue,
            signedDate: signedDate.appStoreMilliseconds, decodedJSON: json
        )
    }

    /// The verified renewal info this record stores.
    func payload(_ decoder: JSONDecoder = AppStoreJSON.decoder()) throws -> JWSRenewalInfoDecodedPayload {
        try decoder.decode(JWSRenewalInfoDecodedPayload.self, from: Data(decodedJSON.utf8))
    }
}

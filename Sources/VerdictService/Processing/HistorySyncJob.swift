import AppStoreServer
import Foundation
import Logging
import VerdictStorage

/// The `sync-history` job: pages Get Transaction History (v2) for one customer, verifies every
/// signed transaction and records it (forward-only), and remembers the response `revision` so
/// the next sync asks only for what changed since. After the last page the customer's history is
/// complete (`historySyncedAt`), which decisions waiting for it look for.
public struct HistorySyncJob: JobHandler {
    public static let kind = "sync-history"
    public var kind: String { Self.kind }

    /// The stores a sync reads and writes.
    public typealias Stores = CustomerStore & JobStore & TransactionStore

    let repository: any Stores
    let verifier: SignedDataVerifier
    let appStore: AppStoreAPIAccess
    let now: @Sendable () -> Date

    public init(repository: any Stores, verifier: SignedDataVerifier, appStore: AppStoreAPIAccess,
                now: @escaping @Sendable () -> Date = { Date() }) {
        self.repository = repository
        self.verifier = verifier
        self.appStore = appStore
        self.now = now
    }

    struct Payload: Codable {
        var originalTransactionId: String
        var environment: String?
    }

    /// A sync job for one customer; at most one is pending per customer.
    public static func job(originalTransactionId: String, environment: String?, at: Int64) -> NewJob {
        let payload = Payload(originalTransactionId: originalTransactionId, environment: environment)
        let json = (try? JSONEncoder.service.encode(payload)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return NewJob(kind: kind, payload: json, dedupeKey: "\(kind):\(originalTransactionId)", runAt: at, createdAt: at,
                      traceParent: TraceParent.current())
    }

    public func run(_ job: JobRecord, logger: Logger) async throws -> String? {
        guard let payload = try? JSONDecoder().decode(Payload.self, from: Data(job.job.payload.utf8)) else {
            throw JobFailure.permanent("the job payload is not a sync-history payload")
        }
        let client = try appStore.client(for: payload.environment.map(AppStoreEnvironment.init(rawValue:)))
        var revision = try await repository.customer(originalTransactionId: payload.originalTransactionId)?.historyRevision
        var recorded = 0
        var pages = 0
        repeat {
            let page: HistoryResponse
            do {
                page = try await client.getTransactionHistory(transactionId: payload.originalTransactionId, revision: revision)
            } catch {
                throw Self.jobFailure(error)
            }
            pages += 1
            for signed in page.signedTransactions ?? [] {
                do {
                    let (transaction, json) = try await verifier.verifyTransactionKeepingJSON(signed)
                    guard let record = TransactionRecord(transaction, json: String(validating: json, as: UTF8.self)) else { continue }
                    // Each transaction links its own chain to the customer's identifiers, so the
                    // customer's other products count in customer-wide facts.
                    let link = CustomerLink(
                        originalTransactionId: record.originalTransactionId, appAccountToken: record.appAccountToken,
                        appTransactionId: transaction.appTransactionId, environment: record.environment,
                        seenAt: now().appStoreMilliseconds)
                    let outcome = try await repository.recordNotificationState(NotificationState(transaction: record, customer: link))
                    if outcome.transactionRecorded == true { recorded += 1 }
                } catch let error as VerificationError where !error.isRetryable {
                    logger.warning("history transaction failed verification", metadata: ["code": .string(error.code)])
                }
            }
            let next = page.revision.flatMap { $0.isEmpty ? nil : $0 }
            revision = next ?? revision
            let complete = page.hasMore != true
            try await repository.recordHistorySync(
                originalTransactionId: payload.originalTransactionId, revision: next, complete: complete,
                at: now().appStoreMilliseconds)
            if complete {
                // Decisions waiting for this history go ahead now.
                try await repository.wakeNotificationJobs(
                    originalTransactionId: payload.originalTransactionId, now: now().appStoreMilliseconds)
                return #"{"pages":\#(pages),"transactionsRecorded":\#(recorded)}"#
            }
        } while pages < AppStoreServerAPIClient.defaultMaxPages
        // A long history: the revision reached is stored, the next run goes on from there.
        throw JobFailure.waiting(delayMilliseconds: 0, "read \(pages) pages (\(recorded) transactions recorded); more follow")
    }

    /// Maps an API failure to a job outcome: Apple's `Retry-After`, retryable → backoff, else dead.
    static func jobFailure(_ failure: AppStoreAPIFailure) -> any Error {
        if let retryAfter = failure.retryAfter {
            return JobFailure.retry(at: retryAfter.appStoreMilliseconds, failure.description)
        }
        return failure.isRetryable ? failure : JobFailure.permanent(failure.description)
    }
}

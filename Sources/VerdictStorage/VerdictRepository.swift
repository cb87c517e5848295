/// The storage contract of the Verdict service: one protocol, two implementations
/// (`SQLRepository` over SQLite — the embedded default, WAL — and over PostgreSQL).
///
/// Every method is one database transaction: either all of its writes are durable when it
/// returns, or it throws and none are. Times are UNIX milliseconds (Apple's unit), chosen by the
/// caller so tests can drive the clock. The refund flow's part is ``RefundRepository``.
public protocol VerdictRepository: RefundRepository {
    /// Which database this repository talks to.
    var backend: StorageBackend { get }

    /// Applies every pending versioned migration; returns the schema version afterwards.
    @discardableResult
    func migrate() async throws -> Int

    /// Pings the database and reports the applied and expected schema versions.
    func readiness() async throws -> StorageReadiness

    /// Closes connections. The repository is unusable afterwards.
    func shutdown() async throws

    // MARK: Notifications

    /// Stores a notification and enqueues its processing job in one transaction. A notification
    /// whose `notificationUUID` is already stored changes nothing and answers `.duplicate`.
    func insertNotification(_ notification: NewNotification, processingJob: NewJob) async throws -> NotificationInsertResult

    /// The stored notification with its processing state, attempts and result.
    func notification(uuid: String) async throws -> NotificationRecord?

    /// The newest `signedDate` of any stored notification (reconciliation starts from it).
    func newestNotificationSignedDate() async throws -> Int64?

    /// Number of stored notifications (all states).
    func notificationCount() async throws -> Int

    // MARK: Transactions, renewal info and customers

    /// Stores a transaction unless a version with a newer-or-equal `signedDate` is stored.
    /// Returns true when this version became the stored one.
    @discardableResult
    func recordTransaction(_ transaction: TransactionRecord) async throws -> Bool

    /// Records a notification's transaction (as ``recordTransaction(_:)``) and renewal info (kept
    /// per `originalTransactionId`, likewise only when no newer-or-equal `signedDate` is stored),
    /// and creates its customer or fills in identifiers the stored one lacked (never erasing one),
    /// in one transaction — one statement on PostgreSQL. Any of the three parts may be absent.
    func recordNotificationState(_ state: NotificationState) async throws -> NotificationStateOutcome

    func transaction(id: String) async throws -> TransactionRecord?
    /// Every stored transaction of one subscription / purchase chain, oldest purchase first.
    func transactions(originalTransactionId: String) async throws -> [TransactionRecord]
    func renewalInfo(originalTransactionId: String) async throws -> RenewalInfoRecord?
    /// Every stored transaction of the customer `originalTransactionId` belongs to, across products
    /// and subscription groups, oldest purchase first: its own chain, the chains of every customer
    /// record sharing its appAccountToken or appTransactionId, and transactions carrying its
    /// appAccountToken.
    func customerTransactions(originalTransactionId: String) async throws -> [TransactionRecord]

    func customer(originalTransactionId: String) async throws -> CustomerRecord?
    func customers(appAccountToken: String) async throws -> [CustomerRecord]
    /// Records a Get Transaction History page read for a customer: the `revision` reached (kept
    /// when nil), and — when `complete`, the last page — `historySyncedAt = at`: the customer's whole
    /// history is stored (decisions wait for it, see `NotificationProcessor`).
    func recordHistorySync(originalTransactionId: String, revision: String?, complete: Bool, at: Int64) async throws

    // MARK: Job queue

    /// Enqueues a job. With a `dedupeKey` already used by a job that is not dead, nothing is
    /// enqueued and the existing job's id is returned with `created == false`.
    func enqueue(_ job: NewJob) async throws -> JobEnqueueResult

    /// Claims up to `limit` runnable jobs for `owner` with a lease until `now + leaseMilliseconds`.
    /// Runnable: queued with `runAt <= now`, or running with an expired lease (a crashed worker).
    /// Ordered by deadline (jobs without one last), then `runAt`, then id. Increments `attempts`.
    /// Several processes may call this concurrently: a job is never leased to two owners at once
    /// (PostgreSQL: `FOR UPDATE SKIP LOCKED`).
    /// With `includeExpiredLeases` false only queued jobs are claimed: a worker that claims often
    /// looks for crashed workers' jobs now and then instead of on every claim.
    func claimJobs(owner: String, limit: Int, leaseMilliseconds: Int64, now: Int64, kinds: [String]?,
                   includeExpiredLeases: Bool) async throws -> [JobRecord]

    /// Marks a job done if `owner` still holds its lease. When the job belongs to a notification,
    /// the notification becomes `processed` with `result` in the same transaction and its
    /// `processedCount` is incremented. Returns false (and changes nothing) if the lease was lost.
    @discardableResult
    func completeJob(id: Int64, owner: String, result: String?, now: Int64) async throws -> Bool

    /// Records a failed attempt if `owner` still holds the lease: back to queued at `retryAt`,
    /// or `dead` when `retryAt` is nil (a notification job's notification becomes `failed`).
    /// With `countsAsAttempt` false (a job that could not run yet, e.g. waiting for history), the
    /// claim's attempt is given back, so waiting never uses up a job's attempts.
    @discardableResult
    func failJob(id: Int64, owner: String, error: String, retryAt: Int64?, countsAsAttempt: Bool, now: Int64) async throws -> Bool

    /// Makes the queued jobs of the notifications about `originalTransactionId` runnable at `now`
    /// (a decision waiting for that customer's history, once the history sync completed).
    /// Returns how many were woken.
    @discardableResult
    func wakeNotificationJobs(originalTransactionId: String, now: Int64) async throws -> Int

    /// Gives back every lease `owner` holds (graceful shutdown): those jobs become queued, runnable now.
    @discardableResult
    func releaseLeases(owner: String, now: Int64) async throws -> Int

    func job(id: Int64) async throws -> JobRecord?
    /// Jobs in one state, newest first.
    func jobs(state: JobState, limit: Int) async throws -> [JobRecord]
    /// Queue depth and age per state, for metrics and `/readyz`.
    func queueStatistics(now: Int64) async throws -> QueueStatistics

    // MARK: Offer signature nonces

    /// Reserves `nonce` for an offer signature until `expiresAt`. Returns false (and changes
    /// nothing) when the nonce was reserved before and has not expired, so a nonce is never issued
    /// twice. Expired reservations are removed in the same transaction.
    func reserveOfferNonce(_ nonce: String, issuedAt: Int64, expiresAt: Int64) async throws -> Bool

    // MARK: Customer attributes

    /// Replaces the attributes of the customer with `appAccountToken`.
    func setCustomerAttributes(_ record: CustomerAttributesRecord) async throws
    /// The attributes set for `appAccountToken`, if any.
    func customerAttributes(appAccountToken: String) async throws -> CustomerAttributesRecord?

    // MARK: Offer decisions

    /// Stores a decision and, in the same transaction, enqueues `followUp` (e.g. its webhook
    /// delivery) — unless one of `caps` is already used up: each is counted and the decision stored
    /// atomically per cap (across processes), and a used-up cap stores nothing and answers
    /// `.capped` (decide again on fresh counts). A decision for a `notificationUUID` that already
    /// has one changes nothing and returns the stored one (a re-run job decides once).
    func insertOfferDecision(_ decision: OfferDecisionRecord, followUp: NewJob?, caps: [OfferCap]) async throws -> OfferDecisionInsert
    func offerDecision(id: String) async throws -> OfferDecisionRecord?
    /// A customer's decisions, newest first.
    func offerDecisions(originalTransactionId: String, limit: Int) async throws -> [OfferDecisionRecord]
    /// The customer's newest decision that made an offer (not held out) still unexpired at `now`.
    func pendingOffer(originalTransactionId: String, now: Int64) async throws -> OfferDecisionRecord?
    /// Offers granted (made, not held out) since `since`: to one customer, or of one offer.
    func grantedOffers(_ scope: OfferCap.Scope, since: Int64) async throws -> Int
    /// Marks the customer's open decisions (no outcome yet, decided before `at`, not decided on
    /// `notificationUUID` itself, and still inside their attribution window: the customer acted at
    /// `actedAt`, no later than `attributionWindow` after the offer's expiry — or after the
    /// decision, for one without an offer): those that made offer `offerIdentifier` become
    /// `redeemed`; the others become `retained` when `retained` is true (the customer stayed).
    /// Returns how many changed.
    func recordOfferOutcome(originalTransactionId: String, offerIdentifier: String?, retained: Bool,
                            notificationUUID: String, actedAt: Int64, attributionWindow: Int64, at: Int64) async throws -> Int
    /// Per rule: decisions, offers made, held out, redeemed, and outcomes in treatment and holdout.
    func offerRuleStatistics() async throws -> [OfferRuleStatistics]
}

extension VerdictRepository {
    /// Claims runnable jobs, crashed workers' jobs included.
    public func claimJobs(owner: String, limit: Int, leaseMilliseconds: Int64, now: Int64, kinds: [String]?) async throws
        -> [JobRecord]
    {
        try await claimJobs(owner: owner, limit: limit, leaseMilliseconds: leaseMilliseconds, now: now, kinds: kinds,
                            includeExpiredLeases: true)
    }
}

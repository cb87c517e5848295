/// The storage contract of the Verdict service: the composition of the stores, one per aggregate,
/// with two implementations (`SQLRepository` over SQLite — the embedded default, WAL — and over
/// PostgreSQL). ``RepositoryFactory`` opens one; the service's parts each take only the stores
/// they use.
///
/// Every method is one database transaction: either all of its writes are durable when it
/// returns, or it throws and none are. Times are UNIX milliseconds (Apple's unit), chosen by the
/// caller so tests can drive the clock.
///
/// A repository acts for one app (``app``, its bundle id): it reads only that app's rows and
/// writes every row it stores with it, so one database holds several apps and none sees
/// another's. ``scoped(to:)`` gives the same database acting for another app. The exceptions are
/// process-wide by nature and documented where they are: the job queue's claims and leases (one
/// worker runs every app's jobs; each job says its app), signature nonces and console sessions.
public protocol VerdictRepository:
    StorageLifecycle, NotificationStore, JobStore, TransactionStore, CustomerStore, CustomerAttributeStore,
    OfferNonceStore, OfferDecisionStore, ConsentStore, TransactionFactStore, ConsumptionRequestStore, DecisionHistoryStore,
    DecisionImportStore, RuleReplayStore, ConsoleSessionStore, DailyStatisticsStore, RetentionMessageStore
{
    /// The app (bundle id) this repository acts for; `''` when opened without one (storage tests
    /// and tools), which sees only rows of no app. ``StorageLifecycle/migrate()`` on a repository
    /// acting for an app also gives that app the rows a database kept from before apps.
    var app: String { get }

    /// The same database (and connections: shut down only one of them) acting for `app`.
    func scoped(to app: String) -> any VerdictRepository
}

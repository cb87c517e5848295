/// The storage contract of the Verdict service: the composition of the stores, one per aggregate,
/// with two implementations (`SQLRepository` over SQLite — the embedded default, WAL — and over
/// PostgreSQL). ``RepositoryFactory`` opens one; the service's parts each take only the stores
/// they use.
///
/// Every method is one database transaction: either all of its writes are durable when it
/// returns, or it throws and none are. Times are UNIX milliseconds (Apple's unit), chosen by the
/// caller so tests can drive the clock.
public protocol VerdictRepository:
    StorageLifecycle, NotificationStore, JobStore, TransactionStore, CustomerStore, CustomerAttributeStore,
    OfferNonceStore, OfferDecisionStore, ConsentStore, TransactionFactStore, ConsumptionRequestStore, DecisionHistoryStore,
    DecisionImportStore, RuleReplayStore, ConsoleSessionStore, DailyStatisticsStore, RetentionMessageStore {}

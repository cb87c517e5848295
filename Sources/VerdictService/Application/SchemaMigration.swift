import Logging
import ServiceLifecycle
import Synchronization
import VerdictStorage

/// Brings the schema up to date once the database answers, for a service that started while its
/// PostgreSQL server was down or still recovering (an orchestrator restarting both at once): the
/// service listens anyway — `/healthz` answers, `/readyz` and the intake answer 503 — and this
/// service retries the migrations with backoff (1 s doubling to 30 s) until they apply. The job
/// worker starts claiming only then.
final class SchemaMigration: Service, Sendable {
    static let longestDelay: Duration = .seconds(30)

    /// Every app's repository, the first first: each migration also lets its app adopt the rows
    /// a database kept from before apps, when they are its.
    let repositories: [any StorageLifecycle]
    let logger: Logger
    private let migrated: Atomic<Bool>

    /// `migrated`: the schema was brought up to date at start (nothing left to do).
    init(repositories: [any StorageLifecycle], migrated: Bool, logger: Logger) {
        self.repositories = repositories
        self.logger = logger
        self.migrated = Atomic(migrated)
    }

    var isMigrated: Bool { migrated.load(ordering: .acquiring) }

    func run() async throws {
        var delay: Duration = .seconds(1)
        while !isMigrated, !Task.isCancelled, !Task.isShuttingDownGracefully {
            do {
                // A ping first: it gives up within the operation timeout, where the migrations
                // (exempt from it) would wait for a connection as long as the server is away.
                _ = try await repositories[0].readiness()
                var version = 0
                for repository in repositories { version = try await repository.migrate() }
                migrated.store(true, ordering: .releasing)
                logger.notice("the database answers: schema at version \(version)")
                break
            } catch {
                logger.warning("the database is still unavailable; retrying", metadata: [
                    "error": "\(StorageErrorText.describe(error))", "retry_in_seconds": "\(delay.components.seconds)",
                ])
            }
            let wait = delay
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: wait) }
            delay = min(delay * 2, Self.longestDelay)
        }
        // A service of the group runs until the group stops.
        try? await gracefulShutdown()
    }

    /// Returns once the schema is up to date, or the service is stopping.
    func waitUntilMigrated() async {
        while !isMigrated, !Task.isCancelled, !Task.isShuttingDownGracefully {
            try? await Task.sleep(for: .milliseconds(200))
        }
    }
}

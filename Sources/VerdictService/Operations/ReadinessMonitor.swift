import Foundation
import ServiceLifecycle
import Synchronization
import VerdictStorage

/// The database's part of readiness, checked in the background so that `GET /readyz` answers at
/// once from what was last seen, whatever the database does: an orchestrator's probe (about a
/// second) reads "not ready" instead of timing out, and no probe holds a connection open while a
/// database call waits.
///
/// Every ``interval`` it asks the database for its schema version; when the App Store key is
/// missing it also counts the refund answers waiting in the queue, at most every
/// ``waitingCountInterval`` (a scan of the queue; the answers have a 12-hour deadline). A check that has not answered within
/// ``checkTimeout`` counts as a database that does not answer, even before the call gives up.
final class ReadinessMonitor: Service, Sendable {
    /// What the last check found.
    struct Snapshot: Sendable {
        var database: OperationsRoutes.Readiness.Check
        var migrations: OperationsRoutes.Readiness.Check
        /// Consumption submissions queued (counted only when they cannot be sent).
        var waitingSubmissions: Int
    }

    private struct State {
        var latest: Snapshot?
        /// When the check now running started.
        var checkStarted: ContinuousClock.Instant?
        /// When the waiting submissions were last counted.
        var counted: ContinuousClock.Instant?
    }

    /// How often the waiting consumption submissions are counted.
    static let waitingCountInterval: Duration = .seconds(30)

    let repository: any JobStore & StorageLifecycle
    let interval: Duration
    let checkTimeout: Duration
    /// Whether to count the queued consumption submissions (they wait only without a key).
    let countsWaitingSubmissions: Bool
    let now: @Sendable () -> Date
    private let state = Mutex(State())

    init(repository: any JobStore & StorageLifecycle, interval: Duration = .seconds(1), checkTimeout: Duration,
         countsWaitingSubmissions: Bool, now: @escaping @Sendable () -> Date) {
        self.repository = repository
        self.interval = interval
        self.checkTimeout = checkTimeout
        self.countsWaitingSubmissions = countsWaitingSubmissions
        self.now = now
    }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await self.refresh()
                try? await Task.sleep(for: self.interval)
            }
        }
    }

    /// Checks the database once and keeps what it found.
    func refresh() async {
        let (previous, counted) = state.withLock { state in
            state.checkStarted = .now
            return (state.latest, state.counted)
        }
        var snapshot = Snapshot(
            database: .init(ready: false, detail: ""),
            migrations: .init(ready: false, detail: "not checked: the database is unreachable"),
            waitingSubmissions: 0)
        do {
            let found = try await repository.readiness()
            snapshot.database = .init(ready: true, detail: "\(found.backend.rawValue) reachable")
            snapshot.migrations = .init(
                ready: found.isCurrent, detail: "schema version \(found.appliedVersion) of \(found.expectedVersion)")
            if countsWaitingSubmissions {
                if let counted, ContinuousClock.now - counted < Self.waitingCountInterval, let previous, previous.database.ready {
                    snapshot.waitingSubmissions = previous.waitingSubmissions
                } else {
                    snapshot.waitingSubmissions = (try? await repository.queueStatistics(now: now().appStoreMilliseconds))?.kinds
                        .first { $0.kind == ConsumptionSubmissionJob.kind }?.queued ?? 0
                    state.withLock { $0.counted = .now }
                }
            }
        } catch {
            snapshot.database.detail = StorageErrorText.describe(error)
        }
        state.withLock { state in
            state.latest = snapshot
            state.checkStarted = nil
        }
    }

    /// What is known now, without waiting: the last check's findings, unless a check has been
    /// waiting for the database longer than ``checkTimeout``.
    var current: Snapshot {
        let (latest, started) = state.withLock { ($0.latest, $0.checkStarted) }
        if let started, case let waited = ContinuousClock.now - started, waited > checkTimeout {
            return Snapshot(
                database: .init(ready: false, detail: "no answer from the database for \(waited.components.seconds) s"),
                migrations: .init(ready: false, detail: "not checked: the database does not answer"),
                waitingSubmissions: latest?.waitingSubmissions ?? 0)
        }
        return latest ?? Snapshot(
            database: .init(ready: false, detail: "not checked yet"),
            migrations: .init(ready: false, detail: "not checked yet"),
            waitingSubmissions: 0)
    }
}

import AppStoreServer
import Foundation
import Logging
import ServiceLifecycle
import VerdictStorage

/// Recovers notifications Apple could not deliver: at start and every `interval`, replays Get
/// Notification History with `onlyFailures` from the newest stored `signedDate` (minus `margin`;
/// the last 24 hours when nothing is stored yet) to now, in every accepted environment that has
/// an App Store Server API host. Does nothing without an In-App Purchase key.
public struct ReconciliationService: Service {
    let intake: NotificationIntake
    let repository: any NotificationStore
    let appStore: AppStoreAPIAccess
    let environments: Set<AppStoreEnvironment>
    let interval: Duration
    let margin: TimeInterval
    let logger: Logger
    let now: @Sendable () -> Date

    public init(intake: NotificationIntake, repository: any NotificationStore, appStore: AppStoreAPIAccess,
                environments: Set<AppStoreEnvironment>, interval: Duration, margin: TimeInterval = 3600,
                logger: Logger, now: @escaping @Sendable () -> Date = { Date() }) {
        self.intake = intake
        self.repository = repository
        self.appStore = appStore
        self.environments = environments
        self.interval = interval
        self.margin = margin
        self.logger = logger
        self.now = now
    }

    public func run() async throws {
        guard appStore.isAvailable, interval > .zero else {
            // A service that returns would stop the whole group: idle until shutdown instead.
            try? await gracefulShutdown()
            return
        }
        await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                await reconcileOnce()
                try? await Task.sleep(for: interval)
            }
        }
    }

    /// One reconciliation pass over every accepted environment.
    func reconcileOnce() async {
        let end = now()
        let start: Date
        do {
            if let newest = try await repository.newestNotificationSignedDate() {
                start = Date(appStoreMilliseconds: newest).addingTimeInterval(-margin)
            } else {
                start = end.addingTimeInterval(-86_400)
            }
        } catch {
            logger.warning("reconciliation skipped: database unavailable", metadata: ["error": "\(StorageErrorText.describe(error))"])
            return
        }
        for environment in environments.sorted(by: { $0.rawValue < $1.rawValue })
        where environment == .production || environment == .sandbox {
            do {
                let client = try appStore.client(for: environment)
                let progress = try await NotificationHistoryReplay(intake: intake, client: client)
                    .replay(start: start, end: end, onlyFailures: true, source: .reconcile)
                logger.info("reconciled notification history", metadata: [
                    "environment": .string(environment.rawValue), "result": .string(progress.description),
                ])
            } catch {
                logger.warning("reconciliation failed", metadata: [
                    "environment": .string(environment.rawValue), "error": "\(error)",
                ])
            }
        }
    }
}

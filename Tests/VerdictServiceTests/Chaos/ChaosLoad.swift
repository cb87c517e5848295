import AppStoreServer
import AppStoreSimulator
import Foundation
import Synchronization

/// The chaos run's settings, from the environment. Present only where the run has a PostgreSQL
/// server of its own that it may restart (`.ci/postgres.sh`'s `verdict_pg_start_chaos`).
struct ChaosSettings: Sendable {
    /// `VERDICT_CHAOS_POSTGRES_URL`: a server (and database) the run creates its database on.
    var serverURL: String
    /// `VERDICT_CHAOS_POSTGRES_RESTART`: an executable that restarts that server; its argument is
    /// how many seconds the server stays down.
    var restartCommand: String
    /// `VERDICT_CHAOS_NOTIFICATIONS` (default 2,000): about how many notifications the simulated
    /// App Store publishes.
    var notifications: Int
    /// `VERDICT_CHAOS_KILL_MILLISECONDS` (default 3,000): time between two SIGKILLs.
    var killInterval: Duration
    /// `VERDICT_CHAOS_RATE` (default 25): about how many notifications are published a second.
    var rate: Int

    static var current: ChaosSettings? {
        let environment = ProcessInfo.processInfo.environment
        guard let url = environment["VERDICT_CHAOS_POSTGRES_URL"], !url.isEmpty,
              let restart = environment["VERDICT_CHAOS_POSTGRES_RESTART"], !restart.isEmpty else { return nil }
        return ChaosSettings(
            serverURL: url, restartCommand: restart,
            notifications: environment["VERDICT_CHAOS_NOTIFICATIONS"].flatMap { Int($0) } ?? 2_000,
            killInterval: .milliseconds(environment["VERDICT_CHAOS_KILL_MILLISECONDS"].flatMap { Int($0) } ?? 3_000),
            rate: max(1, environment["VERDICT_CHAOS_RATE"].flatMap { Int($0) } ?? 25))
    }
}

/// What the simulated App Store published during a chaos run, by kind of customer.
final class ChaosLoad: Sendable {
    /// The kinds of customer, taken in turn; each publishes two or three notifications.
    enum Customer: Int, CaseIterable {
        /// A full-price annual subscriber turns auto-renew off: an offer decision (the capped offer).
        case annualTurnsAutoRenewOff
        /// A monthly subscriber renews once, then lapses: `EXPIRED`, an offer decision.
        case monthlyExpires
        /// A consumable's buyer asks for a refund (consumption request) and gets it (`REFUND`).
        case creditsRefunded
        /// An annual subscriber asks for a refund of the subscription, which Apple declines.
        case annualRefundDeclined
    }

    private let published = Mutex<[SimulatedNotification]>([])
    private let customers = Mutex(0)
    private let steps = Mutex<[Int: String]>([:])

    /// What each customer still being played is doing (for a run that stalls).
    var lanes: String { steps.withLock { $0.sorted { $0.key < $1.key }.map { "customer \($0.key): \($0.value)" }.joined(separator: "; ") } }

    /// Every notification published, in order.
    var all: [SimulatedNotification] { published.withLock { $0 } }
    var count: Int { published.withLock { $0.count } }

    /// Runs `lanes` customers at a time, each pausing between its steps so that together they
    /// publish about `rate` notifications a second, until about `total` are published.
    func run(_ store: SimulatorStore, total: Int, rate: Int, lanes: Int = 8) async throws {
        let pause = Duration.milliseconds(lanes * 1_000 / max(rate, 1))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<lanes {
                group.addTask {
                    while self.count < total {
                        let index = self.customers.withLock { count in defer { count += 1 }; return count }
                        let kind = Customer(rawValue: index % Customer.allCases.count)!
                        try await self.play(kind, customer: index, store: store, pause: pause)
                        self.steps.withLock { $0[index] = nil }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    private func play(_ kind: Customer, customer: Int, store: SimulatorStore, pause: Duration) async throws {
        steps.withLock { $0[customer] = "\(kind) started" }
        func step(_ result: ScenarioResult) async throws -> ScenarioResult {
            let notification = result.notification
            steps.withLock { $0[customer] = "\(kind): \(notification.notificationType.rawValue) published" }
            published.withLock { $0.append(notification) }
            try await Task.sleep(for: pause)
            return result
        }
        switch kind {
        case .annualTurnsAutoRenewOff:
            let bought = try await step(store.subscribe(SubscribeRequest(
                productId: "com.lumen.pro.annual", price: 59_990, currency: "USD", period: .oneYear, appAccountToken: UUID())))
            _ = try await step(store.setAutoRenew(originalTransactionId: try otid(bought), enabled: false))
        case .monthlyExpires:
            let bought = try await step(store.subscribe(SubscribeRequest(
                productId: "com.lumen.pro.monthly", price: 9_990, currency: "USD", appAccountToken: UUID())))
            _ = try await step(store.renew(originalTransactionId: try otid(bought)))
            _ = try await step(store.expire(originalTransactionId: try otid(bought)))
        case .creditsRefunded:
            let bought = try await step(store.purchase(OneTimePurchaseRequest(
                productId: "com.lumen.credits.100", type: .consumable, price: 4_990, currency: "USD", appAccountToken: UUID())))
            let transactionId = try transaction(bought)
            _ = try await step(store.requestRefund(transactionId: transactionId, reason: .unintendedPurchase))
            _ = try await step(store.grantRefund(transactionId: transactionId))
        case .annualRefundDeclined:
            let bought = try await step(store.subscribe(SubscribeRequest(
                productId: "com.lumen.pro.annual", price: 59_990, currency: "USD", period: .oneYear, appAccountToken: UUID())))
            let transactionId = try transaction(bought)
            _ = try await step(store.requestRefund(transactionId: transactionId, reason: .other))
            _ = try await step(store.declineRefund(transactionId: transactionId))
        }
    }

    private func otid(_ result: ScenarioResult) throws -> String {
        guard let id = result.originalTransactionId else { throw ServiceTestError("a subscription without an original transaction id") }
        return id
    }

    private func transaction(_ result: ScenarioResult) throws -> String {
        guard let id = result.transactionId else { throw ServiceTestError("a purchase without a transaction id") }
        return id
    }
}

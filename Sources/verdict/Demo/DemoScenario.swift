import AppStoreServer
import AppStoreSimulator
import Foundation
import VerdictService

/// The story `verdict demo` plays against a running simulator and service: Lumen subscribers
/// who turn auto-renew off or lapse (retention offers), then customers who ask Apple for a
/// refund (consumption requests), then a subscriber on the App Store's cancel page (Retention
/// Messaging), each step delivered by the simulator and processed by the
/// service before the next — as Apple's notifications would arrive over days. Last, a team: a
/// multiseat subscription whose buyer cuts seats, and a refund request about a member's
/// transaction, which Apple does not let anyone answer. Then the same service's second app, Tempo:
/// a subscriber decided by Tempo's own rules, whose offer is signed with Tempo's own key.
///
/// A scenario plays on one app (``app``, its simulated store and a client with a token acting
/// for it); ``playAll(on:output:fullTrace:)`` plays Lumen's story and then Tempo's case. Each case
/// is printed to ``output`` as it completes, saying which app it is about; with
/// ``DemoOutput/silent`` only the returned ``DemoSummary`` tells what was decided. The offer cases
/// are in `DemoScenario+Offers.swift`, the refund cases in `DemoScenario+Refunds.swift`, the
/// cancel page in `DemoScenario+CancelPage.swift`, the team cases in `DemoScenario+Teams.swift`,
/// the second app's in `DemoScenario+SecondApp.swift`.
struct DemoScenario: Sendable {
    /// Lumen's products (see Rules/catalog.yaml).
    enum Product {
        static let annual = "com.lumen.pro.annual"
        static let monthly = "com.lumen.pro.monthly"
        static let credits = "com.lumen.credits.100"
        static let vintageFilters = "com.lumen.filters.vintage"
    }

    /// The app the scenario plays for.
    let app: DemoApp
    /// The app's simulated App Store.
    let store: SimulatorStore
    /// Calls to the service and the simulator.
    let client: DemoClient
    /// Where each case is printed.
    let output: DemoOutput
    /// Print the engine's whole explanation (every trace entry) instead of the deciding part.
    var fullTrace = false
    /// The service in this process: the cancel-page part sets up Retention Messaging with its
    /// In-App Purchase key and message store (nil: that part is skipped).
    var service: VerdictServer?

    /// A scenario for `app` on `stack`'s simulator and service, calling the service with `client`.
    init(stack: DemoStack, app: DemoApp, client: DemoClient, output: DemoOutput, fullTrace: Bool = false) {
        self.init(app: app, store: stack.store(of: app), client: client, output: output)
        self.fullTrace = fullTrace
        self.service = stack.service
    }

    /// A scenario for `app` on any simulator store and service client.
    init(app: DemoApp, store: SimulatorStore, client: DemoClient, output: DemoOutput) {
        self.app = app
        self.store = store
        self.client = client
        self.output = output
    }

    /// Plays the first app's (Lumen's) story with the first app's token, then the second app's
    /// (Tempo's) case with the token of both apps; returns what was decided, each case marked with
    /// its app.
    static func playAll(on stack: DemoStack, output: DemoOutput, fullTrace: Bool) async throws -> DemoSummary {
        let lumen = DemoScenario(stack: stack, app: stack.apps[0], client: stack.client, output: output, fullTrace: fullTrace)
        var summary = try await lumen.play()
        if let app = stack.apps.dropFirst().first {
            let shared = DemoClient(serviceURL: stack.serviceURL, simulatorURL: stack.simulatorURL, token: stack.sharedToken)
            let second = DemoScenario(stack: stack, app: app, client: shared, output: output, fullTrace: fullTrace)
            output.banner("5. A second app in the same service — \(app.name), \(app.tagline)")
            summary.cases += try await second.playSecondApp(besides: lumen)
        }
        return summary
    }

    /// Plays the first app's cases, printing as it goes; returns what was decided.
    func play() async throws -> DemoSummary {
        let first = await store.notificationLog().count
        output.banner("1. Retention offers — \(app.name) subscribers turn auto-renew off or let their subscription lapse")
        var cases = try await playOffers()
        output.banner("2. Refund requests — Apple asks \(app.name) about a refund before it decides")
        cases += try await playRefunds()
        if let service {
            output.banner("3. The cancel page — the App Store asks Verdict what to show a subscriber who may cancel")
            cases += try await playCancelPage(service: service)
        }
        output.banner("4. Teams — a team buyer cuts seats; a member of a team asks for a refund")
        cases += try await playTeams()
        let log = await store.notificationLog()
        return DemoSummary(cases: mine(cases), sampleNotificationUUID: log.count > first ? log[first].notificationUUID : nil)
    }

    /// `cases`, each marked as this scenario's app's.
    func mine(_ cases: [DemoCaseResult]) -> [DemoCaseResult] {
        cases.map { result in
            var result = result
            result.bundleId = app.bundleId
            return result
        }
    }

    /// A case's header, then which app it is about.
    func caseHeader(_ title: String) {
        output.header(title)
        output.field("app", app.label)
    }

    // MARK: - Steps shared by the cases

    /// Prints the engine's explanation of a decision, indented (condensed unless ``fullTrace``).
    func explain(_ explanation: String?) {
        guard let explanation else { return }
        output.block("why (the engine's explanation)", fullTrace ? explanation : DemoExplanation.condensed(explanation))
    }

    /// Lets a minute of simulated time pass, so the next signed notification is dated later.
    func minuteLater(_ minutes: Double = 1) {
        store.clock.advance(by: minutes * 60)
    }

    /// Waits until the service processed `result`'s notification; returns `result`.
    @discardableResult
    func settled(_ result: ScenarioResult) async throws -> ScenarioResult {
        try await client.waitUntilProcessed(result.notification.notificationUUID)
        return result
    }

    /// A new subscriber, processed by the service; returns the originalTransactionId.
    func subscribe(_ request: SubscribeRequest) async throws -> String {
        let bought = try await settled(store.subscribe(request))
        guard let otid = bought.originalTransactionId else { throw DemoError("the simulator's purchase has no originalTransactionId") }
        minuteLater()
        return otid
    }

    /// `count` renewals of a subscription, each processed before the next.
    func renew(_ originalTransactionId: String, times count: Int) async throws {
        for _ in 0..<count {
            try await settled(store.renew(originalTransactionId: originalTransactionId))
            minuteLater()
        }
    }

    /// A one-time purchase, processed by the service; returns the transaction id.
    func buy(_ request: OneTimePurchaseRequest) async throws -> String {
        let bought = try await settled(store.purchase(request))
        guard let transactionId = bought.transactionId else { throw DemoError("the simulator's purchase has no transactionId") }
        minuteLater()
        return transactionId
    }
}

extension Dictionary where Key == String, Value == JSONValue {
    /// A nested value by dotted path (`record.decision.blockedBy.id`).
    subscript(demo path: String) -> JSONValue? { JSONValue.object(self).value(at: path) }

    /// The string at a dotted path.
    func string(_ path: String) -> String? { self[demo: path]?.stringValue }
}

import Foundation
import Hummingbird
import RuleEngine
import VerdictStorage

/// The console's pages for a signed-in viewer or operator: the overview, rules, decisions (list and one
/// decision), a customer's timeline, refund requests. Each reads what the API reads, renders it server-side, and shows
/// nothing secret (no signature, key, token or signed payload).
struct ConsolePages {
    typealias Stores = ConsoleCustomerView.Stores & DecisionHistoryStore & DailyStatisticsStore & JobStore & RetentionMessageStore

    let repository: any Stores
    let reloader: RulesReloader
    let renderer: ConsoleRenderer
    let now: @Sendable () -> Date

    func register(
        on router: some RouterMethods<ServiceRequestContext>,
        session: @escaping @Sendable (Request) async throws -> ConsoleSession?
    ) {
        /// A page for signed-in sessions; others are sent to the sign-in form.
        func page(_ path: RouterPath, _ render: @escaping @Sendable (Request, ServiceRequestContext, ConsoleSession) async throws -> Response) {
            router.get(path) { request, context in
                guard let current = try await session(request) else { return ConsoleRoutes.redirect(to: "/console/sign-in") }
                return try await render(request, context, current)
            }
        }
        page("/console/overview") { request, _, session in
            let today = DayRange.day(of: now().appStoreMilliseconds)
            let period = try ConsolePeriod(request, today: today)
            let data = ConsoleOverviewView.Statistics(
                offers: try await repository.offerRuleDays(period.range), refunds: try await repository.refundRuleDays(period.range),
                notifications: try await repository.notificationDays(period.range),
                deadJobs: try await repository.queueStatistics(now: now().appStoreMilliseconds).dead)
            let view = ConsoleOverviewView(period: period, today: today, reloader: reloader, data: data)
            return renderer.page("overview", title: "Overview", session: session, current: "/console/overview", values: view)
        }
        page("/console/rules") { _, _, session in
            let view = ConsoleRulesView(
                reloader: reloader, offers: try await repository.offerRuleStatistics(),
                refunds: try await repository.refundRuleStatistics(),
                messageStates: try await repository.retentionMessageStates())
            return renderer.page("rules", title: "Rules", session: session, current: "/console/rules", values: view)
        }
        page("/console/refunds") { _, _, session in
            let view = ConsoleRefundsView(
                try await repository.recentConsumptionRequests(limit: 200), now: now().appStoreMilliseconds)
            return renderer.page("refunds", title: "Refund requests", session: session, current: "/console/refunds", values: view)
        }
        page("/console/decisions") { request, _, session in
            let query = try ConsoleDecisionsView.Query(request)
            let view: ConsoleDecisionsView = query.section == "refunds"
                ? ConsoleDecisionsView(query, refunds: try await repository.consumptionRequests(matching: query.filter, limit: 200))
                : ConsoleDecisionsView(query, offers: try await repository.offerDecisions(matching: query.filter, limit: 200))
            return renderer.page("decisions", title: "Decisions", session: session, current: "/console/decisions", values: view)
        }
        page("/console/customer") { request, _, session in
            let view = try await ConsoleCustomerView.find(
                try request.query("q") ?? "", in: repository, now: now().appStoreMilliseconds)
            return renderer.page(
                "customer", title: "Customer", session: session, current: "/console/customer", values: view,
                status: view.notFound == nil ? .ok : .notFound)
        }
        page("/console/decisions/offers/{id}") { _, context, session in
            guard let record = try await repository.offerDecision(id: try context.parameters.require("id").lowercased()) else {
                return renderer.page("decision", title: "No such decision", session: session, values: ConsoleDecisionView.missing, status: .notFound)
            }
            let context = try await decisionContext(record.originalTransactionId, appAccountToken: nil)
            return renderer.page("decision", title: "Offer decision", session: session, values: ConsoleDecisionView(record, context: context))
        }
        page("/console/decisions/refunds/{id}") { _, context, session in
            guard let record = try await repository.consumptionRequest(id: try context.parameters.require("id").lowercased()) else {
                return renderer.page("decision", title: "No such decision", session: session, values: ConsoleDecisionView.missing, status: .notFound)
            }
            let context = try await decisionContext(record.originalTransactionId, appAccountToken: record.appAccountToken)
            return renderer.page("decision", title: "Refund request", session: session, values: ConsoleDecisionView(record, context: context))
        }
    }

    /// What a decision's page links to: the subscription's appAccountToken (the record's, else the
    /// stored customer's) and the active bundle.
    private func decisionContext(_ originalTransactionId: String, appAccountToken: String?) async throws -> ConsoleDecisionView.Context {
        var token = appAccountToken
        if token == nil { token = try await repository.customer(originalTransactionId: originalTransactionId)?.appAccountToken }
        return ConsoleDecisionView.Context(appAccountToken: token, bundle: reloader.store.current)
    }
}

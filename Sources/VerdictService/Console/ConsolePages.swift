import Foundation
import Hummingbird
import RuleEngine
import VerdictStorage

/// The console's pages for a signed-in viewer or operator: the overview, rules, decisions (list and one
/// decision), a customer's timeline, refund requests — each about one app, the page's
/// (``ConsoleScope``), read through that app's repository and rules — and, for a session of several
/// apps, the All apps page. Each reads what the API reads, renders it server-side, and shows
/// nothing secret (no signature, key, token or signed payload).
struct ConsolePages {
    /// Every configured app (the All apps page counts the dead jobs of their one queue).
    let apps: AppDirectory
    let renderer: ConsoleRenderer
    let now: @Sendable () -> Date

    func register(on router: some RouterMethods<ServiceRequestContext>, access: ConsoleAccess) {
        /// A page of one app for signed-in sessions; others are sent to the sign-in form.
        func page(_ path: RouterPath, _ render: @escaping @Sendable (Request, ServiceRequestContext, ConsoleScope) async throws -> Response) {
            router.get(path) { request, context in
                try await access.page(request) { scope in try await render(request, context, scope) }
            }
        }
        router.get(RouterPath(stringLiteral: ConsoleAccess.allAppsPath)) { request, _ in
            try await access.signedIn(request) { session in try await allApps(request, session) }
        }
        page("/console/overview") { request, _, scope in
            let today = DayRange.day(of: now().appStoreMilliseconds)
            let period = try ConsolePeriod(request, today: today)
            // The one queue serves every app: its dead jobs are an app's only when it is the only one.
            let deadJobs = apps.all.count == 1 ? try await self.deadJobs() : nil
            let view = ConsoleOverviewView(
                period: period, today: today, reloader: scope.app.rulesReloader,
                data: try await .read(scope.app.repository, period), deadJobs: deadJobs, links: scope.links)
            return renderer.page("overview", title: "Overview", scope: scope, current: "/console/overview", values: view)
        }
        page("/console/rules") { _, _, scope in
            let repository = scope.app.repository
            let view = ConsoleRulesView(
                reloader: scope.app.rulesReloader, offers: try await repository.offerRuleStatistics(),
                refunds: try await repository.refundRuleStatistics(),
                messageStates: try await repository.retentionMessageStates())
            return renderer.page("rules", title: "Rules", scope: scope, current: "/console/rules", values: view)
        }
        page("/console/refunds") { _, _, scope in
            let view = ConsoleRefundsView(
                try await scope.app.repository.recentConsumptionRequests(limit: 200), links: scope.links, now: now().appStoreMilliseconds)
            return renderer.page("refunds", title: "Refund requests", scope: scope, current: "/console/refunds", values: view)
        }
        page("/console/decisions") { request, _, scope in
            let query = try ConsoleDecisionsView.Query(request)
            let repository = scope.app.repository
            let view: ConsoleDecisionsView = query.section == "refunds"
                ? ConsoleDecisionsView(query, refunds: try await repository.consumptionRequests(matching: query.filter, limit: 200), links: scope.links)
                : ConsoleDecisionsView(query, offers: try await repository.offerDecisions(matching: query.filter, limit: 200), links: scope.links)
            return renderer.page("decisions", title: "Decisions", scope: scope, current: "/console/decisions", values: view)
        }
        page("/console/customer") { request, _, scope in
            let view = try await ConsoleCustomerView.find(
                try request.query("q") ?? "", in: scope.app.repository, links: scope.links, now: now().appStoreMilliseconds)
            return renderer.page(
                "customer", title: "Customer", scope: scope, current: "/console/customer", values: view,
                status: view.notFound == nil ? .ok : .notFound)
        }
        page("/console/decisions/offers/{id}") { _, context, scope in
            guard let record = try await scope.app.repository.offerDecision(id: try context.parameters.require("id").lowercased()) else {
                return renderer.page("decision", title: "No such decision", scope: scope, values: ConsoleDecisionView.missing, status: .notFound)
            }
            let context = try await decisionContext(record.originalTransactionId, appAccountToken: nil, scope)
            return renderer.page("decision", title: "Offer decision", scope: scope, values: ConsoleDecisionView(record, context: context))
        }
        page("/console/decisions/refunds/{id}") { _, context, scope in
            guard let record = try await scope.app.repository.consumptionRequest(id: try context.parameters.require("id").lowercased()) else {
                return renderer.page("decision", title: "No such decision", scope: scope, values: ConsoleDecisionView.missing, status: .notFound)
            }
            let context = try await decisionContext(record.originalTransactionId, appAccountToken: record.appAccountToken, scope)
            return renderer.page("decision", title: "Refund request", scope: scope, values: ConsoleDecisionView(record, context: context))
        }
    }

    /// The All apps page of a session of several apps (one of one app goes to its Overview).
    private func allApps(_ request: Request, _ session: ConsoleSession) async throws -> Response {
        guard session.hasSeveralApps else { return ConsoleRoutes.redirect(to: ConsoleAccess.home(of: session)) }
        let today = DayRange.day(of: now().appStoreMilliseconds)
        let period = try ConsolePeriod(request, today: today)
        var rows: [ConsoleAppsView.Row] = []
        for app in session.apps {
            rows.append(ConsoleAppsView.Row(
                app, statistics: try await .read(app.repository, period), period: period,
                links: ConsoleLinks(session: session, app: app)))
        }
        // The queue's dead jobs are every app's: shown to a session that sees every app.
        let deadJobs = session.apps.count == apps.all.count ? try await self.deadJobs() : nil
        let view = ConsoleAppsView(period: period, today: today, rows: rows, deadJobs: deadJobs)
        return renderer.page("apps", title: "All apps", session: session, current: ConsoleAccess.allAppsPath, values: view)
    }

    /// The dead jobs of the one queue, every app's.
    private func deadJobs() async throws -> Int {
        try await apps.first.repository.queueStatistics(now: now().appStoreMilliseconds).dead
    }

    /// What a decision's page links to: the subscription's appAccountToken (the record's, else the
    /// stored customer's) and the app's active bundle.
    private func decisionContext(
        _ originalTransactionId: String, appAccountToken: String?, _ scope: ConsoleScope
    ) async throws -> ConsoleDecisionView.Context {
        var token = appAccountToken
        if token == nil { token = try await scope.app.repository.customer(originalTransactionId: originalTransactionId)?.appAccountToken }
        return ConsoleDecisionView.Context(appAccountToken: token, bundle: scope.app.rules.current, links: scope.links)
    }
}

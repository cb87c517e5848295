import Foundation
import Hummingbird
import RuleEngine

/// `GET /v1/rules`: the active bundle (hash, load time, rules with their file and line) and the
/// last refused candidate with its positioned errors.
struct RulesRoutes {
    let reloader: RulesReloader

    func register(on router: some RouterMethods<ServiceRequestContext>) {
        router.get("/v1/rules") { _, _ in
            let bundle = reloader.store.current
            let rejected = reloader.lastRejected
            return try JSONBody.response(RulesView(
                directory: reloader.directory,
                hash: bundle?.hash,
                loadedAt: reloader.loadedAt?.appStoreMilliseconds,
                rules: bundle?.ruleReferences ?? [],
                offers: bundle?.catalog.offers.map { .init(id: $0.id, type: $0.type, productIds: $0.productIds) } ?? [],
                lastRejected: rejected.map { attempt in
                    RulesView.Rejected(
                        at: attempt.at.appStoreMilliseconds, hash: attempt.rejection.hash,
                        errors: attempt.rejection.diagnostics.filter { $0.severity == .error },
                        failedTests: attempt.rejection.testReport.map { $0.render() },
                        text: attempt.rejection.render()
                    )
                }
            ))
        }
    }

    /// The response body.
    struct RulesView: Encodable {
        struct Offer: Encodable {
            var id: String
            var type: String
            var productIds: [String]
        }

        struct Rejected: Encodable {
            var at: Int64
            var hash: String?
            var errors: [RuleDiagnostic]
            var failedTests: String?
            var text: String
        }

        var directory: String
        var hash: String?
        var loadedAt: Int64?
        var rules: [RuleReference]
        var offers: [Offer]
        var lastRejected: Rejected?
    }
}

import AppStoreServer
import AppStoreSimulator
import Foundation

/// The second app's case: a Tempo subscriber, served by the same service as Lumen's. Tempo's
/// notification comes from the same simulated App Store and reaches the same
/// `/v1/notifications`; the service decides it with Tempo's rules and catalog, signs the offer
/// with Tempo's own In-App Purchase key, and keeps its records from Lumen's token.
extension DemoScenario {
    /// Tempo's products (see examples/tempo/catalog.yaml).
    enum TempoProduct {
        static let annual = "com.tempo.coach.annual"
    }

    /// Plays (l) and prints it, then which key signed the offer (compared with `first`'s) and what
    /// `first`'s token gets when it asks for the decision; a wrong key or a decision `first`'s
    /// token can read stops the scenario.
    func playSecondApp(besides first: DemoScenario) async throws -> [DemoCaseResult] {
        output.line()
        output.line("  \(app.name)'s notifications come from the same simulated App Store and reach the same")
        output.line("  /v1/notifications; the service decides them with \(app.name)'s rules and signs with \(app.name)'s key.")
        output.line("  Read with the token of both apps: a record named by its id is found without naming the app.")

        // (l) One year of coaching bought at the full price, then auto-renew turned off.
        let results = try await playTreated {
            try await turningAutoRenewOff(
                SubscribeRequest(productId: TempoProduct.annual, price: 69_990, currency: "USD", period: .oneYear),
                name: "tempo-annual-full-price", title: "(l) \(app.name) annual runner who paid full price",
                customer: "\(TempoProduct.annual) · \(DemoFormat.money(69_990, "USD")) a year · 1 payment at full price")
        }
        guard let last = results.last else { return [] }
        let own = store.issuedKey.keyId
        let other = first.store.issuedKey.keyId
        if let keyIdentifier = last.keyIdentifier {
            guard keyIdentifier == own else {
                throw DemoError("\(app.name)'s offer is signed with key \(keyIdentifier), not with \(app.name)'s key \(own)")
            }
            output.field("signed with", "\(app.name)'s own key \(own); \(first.app.name)'s offers are signed with \(other)")
        }
        if let decisionId = last.decisionId {
            let path = "/v1/decisions/\(decisionId)"
            let (status, body) = try await first.client.send(.GET, first.client.serviceURL + path, bearer: first.client.token)
            guard status == 404 else {
                throw DemoError("\(first.app.name)'s token read \(app.name)'s decision: GET \(path) answered \(status): "
                    + String(decoding: body.prefix(300), as: UTF8.self))
            }
            output.field("\(first.app.name)'s token", "GET \(path) answers 404:\nanother app's decision is answered as an absent one")
        }
        return mine(results)
    }
}

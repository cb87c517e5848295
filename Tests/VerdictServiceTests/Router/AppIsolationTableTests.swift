import Foundation
import HTTPTypes
import Testing
@testable import VerdictService
import VerdictStorage
import VerdictTestSupport

/// Isolation as a table: every operation behind a token × a token of app A × a resource of app B.
/// App B holds one of everything (a subscription with a pending offer decision, a notification, a
/// refund request with its facts, attributes and consent for a customer, a replay); app A holds
/// none of it. Each operation, asked by A's token about B's resource, answers exactly as it
/// answers about a resource no app has; an operation about the app as a whole answers A's (none of
/// B's identifiers in it); a write changes A's data and leaves B's as it was. The table must name
/// every token operation of the OpenAPI document, so a new one cannot skip the check.
@Suite struct AppIsolationTableTests {
    typealias Harness = TwoAppRouterHarness

    /// What a row expects of A's answer about B's resource.
    enum Expectation {
        /// The answer about `unknown` (no app has it), with `unknown` replaced by B's id.
        case absent(id: String, unknown: String)
        /// An answer for app A: 2xx, and none of B's identifiers in it (but the one the request names).
        case ownApp
        /// Operators' process-wide views of a token acting for every app (403 for a token of some).
        case everyApp(status: Int)
    }

    struct Row {
        var operation: String
        var path: String
        var body: Data? = nil
        var expectation: Expectation
    }

    /// B's resources, seeded through B's repository and B's token.
    struct Seeded {
        let otid = "7200000000000001"
        let transactionId = "7200000000000009"
        let customer = "0b0b0b0b-0b0b-4b0b-8b0b-0b0b0b0b0b0b"
        var decisionId = ""
        var notificationUUID = ""
        var replayId = ""

        var identifiers: [String] { [otid, transactionId, customer, decisionId, notificationUUID, replayId] }
    }

    static let unknownUUID = "00000000-0000-4000-8000-00000000000f"

    static func rows(_ b: Seeded) -> [Row] {
        let unknown = Harness.unknown, unknownReplay = Harness.unknownReplay
        let factsBody = AppScopeRefundRulesRoutesTests.factsBody(sessions: 99)
        let decide = Data(#"{"originalTransactionId":"\#(b.otid)","trigger":"AUTO_RENEW_DISABLED"}"#.utf8)
        let replay = try? ReplayCandidates.body(try ReplayCandidates.shipped(), ["section": "offers", "sample": 10])
        let signatures = Data(#"{"productId":"com.lumen.pro.annual","offerId":"lumen-annual-40off","format":"both"}"#.utf8)
        return [
            Row(operation: "GET /v1/notifications/{notificationUUID}", path: "/v1/notifications/\(b.notificationUUID)",
                expectation: .absent(id: b.notificationUUID, unknown: unknownUUID)),
            Row(operation: "GET /v1/decisions/{decisionId}", path: "/v1/decisions/\(b.decisionId)",
                expectation: .absent(id: b.decisionId, unknown: unknownUUID)),
            Row(operation: "GET /v1/decisions", path: "/v1/decisions?originalTransactionId=\(b.otid)",
                expectation: .absent(id: b.otid, unknown: unknown)),
            Row(operation: "GET /v1/subscriptions/{originalTransactionId}/decisions", path: "/v1/subscriptions/\(b.otid)/decisions",
                expectation: .absent(id: b.otid, unknown: unknown)),
            Row(operation: "GET /v1/subscriptions/{originalTransactionId}/offer", path: "/v1/subscriptions/\(b.otid)/offer",
                expectation: .absent(id: b.otid, unknown: unknown)),
            Row(operation: "GET /v1/customers/{appAccountToken}/offer", path: "/v1/customers/\(b.otid)/offer",
                expectation: .absent(id: b.otid, unknown: unknown)),
            Row(operation: "POST /v1/offers/decide", path: "/v1/offers/decide", body: decide,
                expectation: .absent(id: b.otid, unknown: unknown)),
            Row(operation: "POST /v1/offers/signatures", path: "/v1/offers/signatures", body: signatures, expectation: .ownApp),
            Row(operation: "GET /v1/customers/{appAccountToken}/attributes", path: "/v1/customers/\(b.customer)/attributes",
                expectation: .absent(id: b.customer, unknown: unknownUUID)),
            Row(operation: "PUT /v1/customers/{appAccountToken}/attributes", path: "/v1/customers/\(b.customer)/attributes",
                body: Data(#"{"exportsLast30Days":1}"#.utf8), expectation: .ownApp),
            Row(operation: "GET /v1/customers/{appAccountToken}/consent", path: "/v1/customers/\(b.customer)/consent",
                expectation: .absent(id: b.customer, unknown: unknownUUID)),
            Row(operation: "PUT /v1/customers/{appAccountToken}/consent", path: "/v1/customers/\(b.customer)/consent",
                body: AppScopeOfferRoutesTests.consent(false), expectation: .ownApp),
            Row(operation: "GET /v1/subscriptions/{originalTransactionId}/consent", path: "/v1/subscriptions/\(b.otid)/consent",
                expectation: .absent(id: b.otid, unknown: unknown)),
            Row(operation: "PUT /v1/subscriptions/{originalTransactionId}/consent", path: "/v1/subscriptions/\(b.otid)/consent",
                body: AppScopeOfferRoutesTests.consent(false), expectation: .ownApp),
            Row(operation: "GET /v1/transactions/{transactionId}/facts", path: "/v1/transactions/\(b.transactionId)/facts",
                expectation: .absent(id: b.transactionId, unknown: unknown)),
            Row(operation: "PUT /v1/transactions/{transactionId}/facts", path: "/v1/transactions/\(b.transactionId)/facts",
                body: factsBody, expectation: .ownApp),
            Row(operation: "GET /v1/consumption/{transactionId}", path: "/v1/consumption/\(b.transactionId)",
                expectation: .absent(id: b.transactionId, unknown: unknown)),
            Row(operation: "GET /v1/consumption", path: "/v1/consumption", expectation: .ownApp),
            Row(operation: "GET /v1/rules", path: "/v1/rules", expectation: .ownApp),
            Row(operation: "GET /v1/rules/stats", path: "/v1/rules/stats", expectation: .ownApp),
            Row(operation: "POST /v1/rules/replay", path: "/v1/rules/replay", body: replay, expectation: .ownApp),
            Row(operation: "GET /v1/rules/replay", path: "/v1/rules/replay", expectation: .ownApp),
            Row(operation: "GET /v1/rules/replay/{replayId}", path: "/v1/rules/replay/\(b.replayId)",
                expectation: .absent(id: b.replayId, unknown: unknownReplay)),
            Row(operation: "GET /v1/rules/replay/{replayId}/report.html", path: "/v1/rules/replay/\(b.replayId)/report.html",
                expectation: .absent(id: b.replayId, unknown: unknownReplay)),
            Row(operation: "DELETE /v1/rules/replay/{replayId}", path: "/v1/rules/replay/\(b.replayId)",
                expectation: .absent(id: b.replayId, unknown: unknownReplay)),
            Row(operation: "GET /v1/jobs", path: "/v1/jobs?state=queued", expectation: .ownApp),
            Row(operation: "GET /metrics", path: "/metrics", expectation: .everyApp(status: 403)),
        ]
    }

    @Test(arguments: TestBackend.selected)
    func aTokenOfAppANeverReachesAResourceOfAppB(_ backend: TestBackend) async throws {
        try await Harness.with(backend, signingKeys: true) { harness in
            let b = try await Self.seed(harness)
            let rows = Self.rows(b)
            // Every token operation of the document is in the table.
            let documented = OpenAPIContract.service.operations.filter { OpenAPIContract.service.roles(of: $0) != nil }
            #expect(Set(rows.map(\.operation)) == documented)
            let before = try await Self.snapshot(harness, b)
            for row in rows {
                let method = HTTPRequest.Method(String(row.operation.prefix { $0 != " " }))!
                let answer = try await harness.send(method, row.path, token: Harness.tokenA, body: row.body)
                let text = String(decoding: answer.body, as: UTF8.self)
                switch row.expectation {
                case .absent(let id, let unknown):
                    let reference = try await harness.send(
                        method, row.path.replacingOccurrences(of: id, with: unknown), token: Harness.tokenA,
                        body: row.body.map { Data(String(decoding: $0, as: UTF8.self).replacingOccurrences(of: id, with: unknown).utf8) })
                    #expect(answer.status == reference.status, "\(row.operation)")
                    #expect(text == String(decoding: reference.body, as: UTF8.self).replacingOccurrences(of: unknown, with: id),
                            "\(row.operation)")
                case .ownApp:
                    #expect((200..<300).contains(answer.status), "\(row.operation): \(answer.status) \(text.prefix(300))")
                    // A write about a key echoes it: that key is now A's own record too.
                    for identifier in b.identifiers where text.contains(identifier) && !row.path.contains(identifier) {
                        Issue.record("\(row.operation) answered A's token with B's \(identifier)")
                    }
                case .everyApp(let status):
                    #expect(answer.status == status, "\(row.operation)")
                    #expect(try await harness.send(method, row.path, token: Harness.tokenAB).status == 200, "\(row.operation)")
                }
            }
            // A's writes went to A: B's data is as it was.
            #expect(try await Self.snapshot(harness, b) == before)
        }
    }

    /// Seeds B's resources (A gets nothing).
    static func seed(_ harness: Harness) async throws -> Seeded {
        var b = Seeded()
        try await AppScopeOfferRoutesTests.storeSubscription(harness, Harness.b, b.otid, appAccountToken: b.customer)
        b.decisionId = try await AppScopeOfferRoutesTests.storeDecision(harness, Harness.b, b.otid, pending: true)
        let repository = try harness.app(Harness.b).repository
        b.notificationUUID = UUID().uuidString.lowercased()
        _ = try await repository.insertNotification(
            NewNotification(
                notificationUUID: b.notificationUUID, notificationType: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED",
                environment: "Sandbox", bundleId: Harness.b, originalTransactionId: b.otid, transactionId: b.otid,
                signedDate: 1_795_000_000_000, receivedAt: 1_795_000_000_000, source: .delivery, signedPayload: "x.y.z",
                decodedJSON: "{}"),
            processingJob: NewJob(kind: "unknown-kind", payload: "{}", runAt: Int64.max / 2, createdAt: 1_795_000_000_000))
        try await repository.insertConsumptionRequest(
            AppScopeRefundRulesRoutesTests.consumptionRequest(transactionId: b.transactionId, ruleId: "rule-of-b"), submission: nil)
        try await repository.setTransactionFacts(AppScopeRefundRulesRoutesTests.facts(b.transactionId, sessions: 5))
        let token = Harness.tokenB
        #expect(try await harness.send(.put, "/v1/customers/\(b.customer)/attributes", token: token,
                                       body: Data(#"{"exportsLast30Days":25}"#.utf8)).status == 200)
        #expect(try await harness.send(.put, "/v1/customers/\(b.customer)/consent", token: token,
                                       body: AppScopeOfferRoutesTests.consent(true)).status == 200)
        #expect(try await harness.send(.put, "/v1/subscriptions/\(b.otid)/consent", token: token,
                                       body: AppScopeOfferRoutesTests.consent(true)).status == 200)
        b.replayId = try await AppScopeRefundRulesRoutesTests.launch(harness, token: token)
        return b
    }

    /// B's data as B's token reads it.
    static func snapshot(_ harness: Harness, _ b: Seeded) async throws -> [String] {
        var answers: [String] = []
        for path in ["/v1/customers/\(b.customer)/attributes", "/v1/customers/\(b.customer)/consent",
                     "/v1/subscriptions/\(b.otid)/consent", "/v1/transactions/\(b.transactionId)/facts",
                     "/v1/decisions/\(b.decisionId)", "/v1/consumption/\(b.transactionId)", "/v1/rules/replay/\(b.replayId)"] {
            let answer = try await harness.send(.get, path, token: Harness.tokenB)
            #expect(answer.status == 200, "\(path)")
            answers.append(String(decoding: answer.body, as: UTF8.self))
        }
        return answers
    }
}

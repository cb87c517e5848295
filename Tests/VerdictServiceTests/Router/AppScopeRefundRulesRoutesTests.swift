import Foundation
import HTTPTypes
import Testing
@testable import VerdictService
import VerdictStorage
import VerdictTestSupport

/// The app scope of the refund, rules and replay endpoints, in-process with two apps: a token of
/// app A reaches A's records; B's record answers it exactly as an absent one; operations about an
/// app as a whole (and writes for a record no app has yet) act for the token's only app or the one
/// the `Verdict-App` header names — 400 `APP_REQUIRED` without it for a token of both apps, 404 when
/// it names an app the token does not act for.
@Suite struct AppScopeRefundRulesRoutesTests {
    typealias Harness = TwoAppRouterHarness
    typealias Answer = RouterHarness.Answer

    // MARK: Transaction facts

    @Test(arguments: TestBackend.selected)
    func transactionFactsAreReadThroughTheirApp(_ backend: TestBackend) async throws {
        try await Harness.with(backend) { harness in
            try await harness.app(Harness.a).repository.setTransactionFacts(Self.facts("7100000000000001", sessions: 1))
            try await harness.app(Harness.b).repository.setTransactionFacts(Self.facts("7200000000000001", sessions: 2))
            let reference = try await harness.send(.get, "/v1/transactions/\(Harness.unknown)/facts", token: Harness.tokenA)
            #expect(reference.status == 404)

            let own = try await harness.send(.get, "/v1/transactions/7100000000000001/facts", token: Harness.tokenA)
            #expect(own.status == 200 && own.body.jsonObject["sessionsSincePurchase"]?.integerValue == 1)
            let other = try await harness.send(.get, "/v1/transactions/7200000000000001/facts", token: Harness.tokenA)
            Harness.expectAbsent(other, like: reference, id: "7200000000000001")
            for token in [Harness.tokenB, Harness.tokenAB] {
                let found = try await harness.send(.get, "/v1/transactions/7200000000000001/facts", token: token)
                #expect(found.status == 200 && found.body.jsonObject["sessionsSincePurchase"]?.integerValue == 2)
            }
            let named = try await harness.send(.get, "/v1/transactions/7200000000000001/facts", token: Harness.tokenAB, app: Harness.a)
            Harness.expectAbsent(named, like: reference, id: "7200000000000001")
            try await Harness.expectOtherAppRefused(harness, .get, "/v1/transactions/7100000000000001/facts")
        }
    }

    @Test(arguments: TestBackend.selected)
    func factsAreWrittenToTheTransactionsApp(_ backend: TestBackend) async throws {
        try await Harness.with(backend) { harness in
            let a = try harness.app(Harness.a).repository
            let b = try harness.app(Harness.b).repository
            _ = try await b.recordTransaction(Self.transaction("7200000000000002"))
            // A token of both apps needs no header: the transaction says whose facts they are.
            let put = try await harness.send(
                .put, "/v1/transactions/7200000000000002/facts", token: Harness.tokenAB, body: Self.factsBody(sessions: 3))
            #expect(put.status == 200)
            #expect(try await b.transactionFacts(transactionId: "7200000000000002")?.sessionsSincePurchase == 3)
            #expect(try await a.transactionFacts(transactionId: "7200000000000002") == nil)
            // A token of A never reaches B's transaction: its write is A's own, and B's facts stay.
            let fromA = try await harness.send(
                .put, "/v1/transactions/7200000000000002/facts", token: Harness.tokenA, body: Self.factsBody(sessions: 9))
            #expect(fromA.status == 200)
            #expect(try await a.transactionFacts(transactionId: "7200000000000002")?.sessionsSincePurchase == 9)
            #expect(try await b.transactionFacts(transactionId: "7200000000000002")?.sessionsSincePurchase == 3)
        }
    }

    @Test(arguments: TestBackend.selected)
    func factsBeforeTheTransactionGoToTheRequestsApp(_ backend: TestBackend) async throws {
        try await Harness.with(backend) { harness in
            let path = "/v1/transactions/7300000000000001/facts"
            let body = Self.factsBody(sessions: 4)
            let refused = try await harness.send(.put, path, token: Harness.tokenAB, body: body)
            Harness.expectAppRequired(refused)
            let named = try await harness.send(.put, path, token: Harness.tokenAB, app: Harness.b, body: body)
            #expect(named.status == 200)
            #expect(try await harness.app(Harness.b).repository.transactionFacts(transactionId: "7300000000000001")?.sessionsSincePurchase == 4)
            #expect(try await harness.app(Harness.a).repository.transactionFacts(transactionId: "7300000000000001") == nil)
            let unnamed = try await harness.send(.put, "/v1/transactions/7300000000000002/facts", token: Harness.tokenA, body: body)
            #expect(unnamed.status == 200)
            #expect(try await harness.app(Harness.a).repository.transactionFacts(transactionId: "7300000000000002") != nil)
            try await Harness.expectOtherAppRefused(harness, .put, path, body: body)
            #expect(try await harness.app(Harness.b).repository.transactionFacts(transactionId: "7300000000000001")?.sessionsSincePurchase == 4)
        }
    }

    // MARK: Consumption requests

    @Test(arguments: TestBackend.selected)
    func consumptionRequestsAreFoundThroughTheirApp(_ backend: TestBackend) async throws {
        try await Harness.with(backend) { harness in
            try await Self.seedConsumptionRequests(harness)
            let reference = try await harness.send(.get, "/v1/consumption/\(Harness.unknown)", token: Harness.tokenA)
            #expect(reference.status == 404)
            let own = try await harness.send(.get, "/v1/consumption/7100000000000009", token: Harness.tokenA)
            #expect(own.status == 200 && own.body.jsonObject["ruleId"]?.stringValue == "rule-of-a")
            let other = try await harness.send(.get, "/v1/consumption/7200000000000009", token: Harness.tokenA)
            Harness.expectAbsent(other, like: reference, id: "7200000000000009")
            for token in [Harness.tokenB, Harness.tokenAB] {
                let found = try await harness.send(.get, "/v1/consumption/7200000000000009", token: token)
                #expect(found.status == 200 && found.body.jsonObject["ruleId"]?.stringValue == "rule-of-b")
            }
            try await Harness.expectOtherAppRefused(harness, .get, "/v1/consumption/7100000000000009")
        }
    }

    @Test(arguments: TestBackend.selected)
    func theNewestConsumptionRequestsAreTheRequestsApps(_ backend: TestBackend) async throws {
        try await Harness.with(backend) { harness in
            try await Self.seedConsumptionRequests(harness)
            func transactions(_ answer: Answer) -> [String] {
                answer.body.jsonObject["requests"]?.arrayValue?.compactMap { $0.objectValue?["transactionId"]?.stringValue } ?? []
            }
            #expect(transactions(try await harness.send(.get, "/v1/consumption", token: Harness.tokenA)) == ["7100000000000009"])
            #expect(transactions(try await harness.send(.get, "/v1/consumption", token: Harness.tokenB)) == ["7200000000000009"])
            let named = try await harness.send(.get, "/v1/consumption", token: Harness.tokenAB, app: Harness.b)
            #expect(named.status == 200 && transactions(named) == ["7200000000000009"])
            Harness.expectAppRequired(try await harness.send(.get, "/v1/consumption", token: Harness.tokenAB))
            try await Harness.expectOtherAppRefused(harness, .get, "/v1/consumption")
        }
    }

    // MARK: Rules

    @Test(arguments: TestBackend.selected)
    func rulesAndStatsAreTheRequestsApps(_ backend: TestBackend) async throws {
        try await Harness.with(backend) { harness in
            try await Self.seedConsumptionRequests(harness)
            func directory(_ answer: Answer) -> String? { answer.body.jsonObject["directory"]?.stringValue }
            func refundRules(_ answer: Answer) -> [String] {
                answer.body.jsonObject["refundRules"]?.arrayValue?.compactMap { $0.objectValue?["ruleId"]?.stringValue } ?? []
            }
            let rulesA = try await harness.send(.get, "/v1/rules", token: Harness.tokenA)
            #expect(rulesA.status == 200 && directory(rulesA) == ServiceHarness.rulesDirectory)
            #expect(directory(try await harness.send(.get, "/v1/rules", token: Harness.tokenB)) == harness.rulesDirectoryB)
            let namedB = try await harness.send(.get, "/v1/rules", token: Harness.tokenAB, app: Harness.b)
            #expect(namedB.status == 200 && directory(namedB) == harness.rulesDirectoryB)

            #expect(refundRules(try await harness.send(.get, "/v1/rules/stats", token: Harness.tokenA)) == ["rule-of-a"])
            #expect(refundRules(try await harness.send(.get, "/v1/rules/stats", token: Harness.tokenB)) == ["rule-of-b"])
            let statsB = try await harness.send(.get, "/v1/rules/stats", token: Harness.tokenAB, app: Harness.b)
            #expect(statsB.status == 200 && refundRules(statsB) == ["rule-of-b"])
            for path in ["/v1/rules", "/v1/rules/stats"] {
                Harness.expectAppRequired(try await harness.send(.get, path, token: Harness.tokenAB))
                try await Harness.expectOtherAppRefused(harness, .get, path)
            }
        }
    }

    // MARK: Replays

    @Test(arguments: TestBackend.selected)
    func replaysAreLaunchedAndListedForTheRequestsApp(_ backend: TestBackend) async throws {
        try await Harness.with(backend) { harness in
            let candidate = try ReplayCandidates.body(try ReplayCandidates.shipped(), ["section": "offers", "sample": 10])
            Harness.expectAppRequired(try await harness.send(.post, "/v1/rules/replay", token: Harness.tokenAB, body: candidate))
            try await Harness.expectOtherAppRefused(harness, .post, "/v1/rules/replay", body: candidate)
            let idB = try await Self.launch(harness, token: Harness.tokenAB, app: Harness.b)
            let idA = try await Self.launch(harness, token: Harness.tokenA)
            #expect(try await harness.app(Harness.b).repository.replay(id: idB) != nil)
            #expect(try await harness.app(Harness.a).repository.replay(id: idB) == nil)
            #expect(try await harness.app(Harness.a).repository.replay(id: idA) != nil)
            // The durable job is the replay's app's: that app's RuleReplayJob runs it.
            let jobs = try await harness.service.database.jobs(state: .queued, limit: 50).filter { $0.job.kind == RuleReplayJob.kind }
            #expect(Set(jobs.map { "\($0.app) \($0.job.dedupeKey ?? "")" })
                == ["\(Harness.a) rule-replay:\(idA)", "\(Harness.b) rule-replay:\(idB)"])

            func listed(_ answer: Answer) -> [String] {
                answer.body.jsonObject["replays"]?.arrayValue?.compactMap { $0.objectValue?["id"]?.stringValue } ?? []
            }
            #expect(listed(try await harness.send(.get, "/v1/rules/replay", token: Harness.tokenA)) == [idA])
            #expect(listed(try await harness.send(.get, "/v1/rules/replay", token: Harness.tokenB)) == [idB])
            #expect(listed(try await harness.send(.get, "/v1/rules/replay", token: Harness.tokenAB, app: Harness.b)) == [idB])
            Harness.expectAppRequired(try await harness.send(.get, "/v1/rules/replay", token: Harness.tokenAB))
            try await Harness.expectOtherAppRefused(harness, .get, "/v1/rules/replay")
        }
    }

    @Test(arguments: TestBackend.selected)
    func aReplayIsFoundThroughItsApp(_ backend: TestBackend) async throws {
        try await Harness.with(backend) { harness in
            let idB = try await Self.launch(harness, token: Harness.tokenB)
            for suffix in ["", "/report.html"] {
                let reference = try await harness.send(.get, "/v1/rules/replay/\(Harness.unknownReplay)\(suffix)", token: Harness.tokenA)
                #expect(reference.status == 404)
                let other = try await harness.send(.get, "/v1/rules/replay/\(idB)\(suffix)", token: Harness.tokenA)
                Harness.expectAbsent(other, like: reference, id: idB, unknown: Harness.unknownReplay)
                try await Harness.expectOtherAppRefused(harness, .get, "/v1/rules/replay/\(idB)\(suffix)")
            }
            let own = try await harness.send(.get, "/v1/rules/replay/\(idB)", token: Harness.tokenAB)
            #expect(own.status == 200 && own.body.jsonObject["state"]?.stringValue == "queued")
            let notReady = try await harness.send(.get, "/v1/rules/replay/\(idB)/report.html", token: Harness.tokenB)
            #expect(notReady.status == 409 && notReady.body.jsonObject[path: "error.code"]?.stringValue == "REPORT_NOT_READY")

            // A cancel from A is refused as for an absent replay, and leaves B's replay queued.
            let reference = try await harness.send(.delete, "/v1/rules/replay/\(Harness.unknownReplay)", token: Harness.tokenA)
            let other = try await harness.send(.delete, "/v1/rules/replay/\(idB)", token: Harness.tokenA)
            Harness.expectAbsent(other, like: reference, id: idB, unknown: Harness.unknownReplay)
            try await Harness.expectOtherAppRefused(harness, .delete, "/v1/rules/replay/\(idB)")
            #expect(try await harness.app(Harness.b).repository.replay(id: idB)?.state == .queued)
            let cancelled = try await harness.send(.delete, "/v1/rules/replay/\(idB)", token: Harness.tokenAB)
            #expect(cancelled.status == 200 && cancelled.body.jsonObject["state"]?.stringValue == "cancelled")
            #expect(try await harness.app(Harness.b).repository.replay(id: idB)?.state == .cancelled)
        }
    }
}

// MARK: - Expectations and seeds

extension AppScopeRefundRulesRoutesTests {
    /// Launches a replay of the shipped rules and returns its id.
    static func launch(_ harness: Harness, token: String, app: String? = nil) async throws -> String {
        let body = try ReplayCandidates.body(try ReplayCandidates.shipped(), ["section": "offers", "sample": 10])
        let answer = try await harness.send(.post, "/v1/rules/replay", token: token, app: app, body: body)
        #expect(answer.status == 202)
        return try #require(answer.body.jsonObject["id"]?.stringValue)
    }

    /// One refund request in each app: A's for transaction 7100000000000009 decided by `rule-of-a`,
    /// B's for 7200000000000009 by `rule-of-b`.
    static func seedConsumptionRequests(_ harness: Harness) async throws {
        try await harness.app(Harness.a).repository.insertConsumptionRequest(
            consumptionRequest(transactionId: "7100000000000009", ruleId: "rule-of-a"), submission: nil)
        try await harness.app(Harness.b).repository.insertConsumptionRequest(
            consumptionRequest(transactionId: "7200000000000009", ruleId: "rule-of-b"), submission: nil)
    }

    static func consumptionRequest(transactionId: String, ruleId: String) -> ConsumptionRequestRecord {
        ConsumptionRequestRecord(
            id: UUID().uuidString.lowercased(), notificationUUID: UUID().uuidString.lowercased(), transactionId: transactionId,
            originalTransactionId: transactionId, appAccountToken: nil, environment: "Sandbox", reason: "LEGAL",
            requestedAt: 1_795_000_000_000, deadline: 1_795_043_200_000, decidedAt: 1_795_000_001_000, bundleHash: "sha256:abc",
            ruleId: ruleId, ruleLine: 7, blockedBy: nil, consentBasis: .recorded, state: .notSent, body: nil, json: "{}")
    }

    static func transaction(_ id: String) -> TransactionRecord {
        TransactionRecord(
            transactionId: id, originalTransactionId: id, productId: "com.lumen.pro.annual", appAccountToken: nil,
            environment: "Sandbox", purchaseDate: 1_794_000_000_000, revocationDate: nil, signedDate: 1_794_000_000_000,
            decodedJSON: #"{"transactionId":"\#(id)","originalTransactionId":"\#(id)","productId":"com.lumen.pro.annual"}"#)
    }

    static func facts(_ transactionId: String, sessions: Int64) -> TransactionFactsRecord {
        TransactionFactsRecord(
            transactionId: transactionId, deliveryStatus: nil, consumptionPercentage: nil, sampleContentProvided: nil,
            sessionsSincePurchase: sessions, updatedAt: 1_795_000_000_000, finalAt: nil)
    }

    static func factsBody(sessions: Int) -> Data { Data(#"{"sessionsSincePurchase":\#(sessions)}"#.utf8) }
}

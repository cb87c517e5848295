import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing
import VerdictService
import VerdictTestSupport

/// Replays through the API over a history built in the simulator and decided by the running
/// service: the shipped bundle changes nothing (against the record and against itself), a
/// removed veto changes exactly the customer it blocked, a changed constant changes the customer
/// it priced out and is the one item of the diff, and the HTML report is served.
@Suite struct ReplayEndpointTests {
    /// Plays three offer histories (four offer decisions) and one refund request; returns the refunder's subscription.
    static func seed(_ harness: ServiceHarness) async throws -> String {
        var refunder = ""
        for history in [OfferHistoryTests.History.jpyMonthlyLoyal, .recentRefunder, .expiredWinBack] {
            let (otid, _) = try await OfferHistoryTests.play(history, harness)
            if history == .recentRefunder { refunder = otid }
        }
        let token = UUID()
        let purchase = try await harness.buy("com.lumen.credits.100", token: token)
        try await harness.consent(token)
        try await harness.askRefund(purchase, .unintendedPurchase)
        return refunder
    }

    /// Posts a replay and polls it until it ends; returns the final resource.
    static func replay(_ harness: ServiceHarness, _ files: [String: String], _ settings: [String: Any] = [:]) async throws
        -> [String: JSONValue] {
        let (status, body) = try await harness.request(.POST, "/v1/rules/replay", body: try ReplayCandidates.body(files, settings))
        #expect(status == 202, "\(String(decoding: body.prefix(500), as: UTF8.self))")
        let id = try #require(body.jsonObject["id"]?.stringValue)
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let current = try await harness.request(.GET, "/v1/rules/replay/\(id)").body.jsonObject
            if ["done", "failed", "cancelled"].contains(current["state"]?.stringValue) { return current }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ServiceTestError("replay \(id) did not end within 30 s")
    }

    @Test(arguments: TestBackend.selected)
    func theShippedBundleChangesNothing(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            _ = try await Self.seed(harness)
            let shipped = try ReplayCandidates.shipped()
            for baseline in ["recorded", "active"] {
                let replay = try await Self.replay(harness, shipped, ["baseline": baseline])
                #expect(replay["state"]?.stringValue == "done", "\(replay["error"] ?? .null)")
                let report = replay["report"]?.objectValue ?? [:]
                #expect(report[path: "totals.changed"]?.integerValue == 0, "\(baseline)")
                // Four offer decisions (the win-back history decides on auto-renew off and on expiry)
                // and one refund request.
                #expect(report[path: "totals.replayed"]?.integerValue == 5, "\(baseline)")
                #expect(report[path: "totals.errors"]?.integerValue == 0, "\(baseline)")
                #expect(report["diff"]?.arrayValue?.isEmpty == true)
                #expect(replay[path: "progress.done"]?.integerValue == 5 && replay[path: "progress.total"]?.integerValue == 5)
            }
        }
    }

    @Test(arguments: TestBackend.selected)
    func aRemovedVetoChangesTheCustomerItBlocked(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            let refunder = try await Self.seed(harness)
            var files = try ReplayCandidates.shipped(
                editing: "retention.rules.yaml", "    - id: no-offers-to-recent-refunders\n      if: segment.recentRefunder\n", "")
            files["retention.tests.yaml"] = nil
            let replay = try await Self.replay(harness, files, ["section": "offers"])
            let report = replay["report"]?.objectValue ?? [:]
            #expect(report[path: "totals.replayed"]?.integerValue == 4)
            #expect(report[path: "totals.changed"]?.integerValue == 1)
            let changed = try #require(report["transitions"]?.arrayValue?.compactMap(\.objectValue).first { $0["changed"] == .bool(true) })
            #expect(changed["from"]?.stringValue == "none" && changed["fromReason"]?.stringValue == "vetoed")
            #expect(changed["to"]?.stringValue == "lumen-annual-40off")
            let example = try #require(changed["examples"]?.arrayValue?.first?.objectValue)
            #expect(example["originalTransactionId"]?.stringValue == refunder)
            #expect(example["baselineExplanation"]?.stringValue?.contains("blocked by veto no-offers-to-recent-refunders") == true)
            #expect(report["diff"]?.arrayValue?.compactMap(\.objectValue).contains {
                $0["change"]?.stringValue == "removed" && $0["rule"]?.stringValue == "no-offers-to-recent-refunders"
                    && $0["line"]?.integerValue == 71
            } == true)
            let id = try #require(replay["id"]?.stringValue)
            let (status, html) = try await harness.request(.GET, "/v1/rules/replay/\(id)/report.html")
            #expect(status == 200)
            #expect(String(decoding: html, as: UTF8.self).contains("<h1>Replay report</h1>"))
        }
    }

    @Test(arguments: TestBackend.selected)
    func aChangedConstantIsTheDiffOfTheCustomersItChanges(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            _ = try await Self.seed(harness)
            // The loyal JPY subscriber paid 1,200 JPY a month: no longer full price at 1,500.
            var files = try ReplayCandidates.shipped(editing: "retention.rules.yaml", "JPY: money('1000 JPY')", "JPY: money('1500 JPY')")
            files["retention.tests.yaml"] = nil
            let replay = try await Self.replay(harness, files, ["section": "offers"])
            let report = replay["report"]?.objectValue ?? [:]
            #expect(report[path: "totals.changed"]?.integerValue == 1)
            let changed = try #require(report["transitions"]?.arrayValue?.compactMap(\.objectValue).first { $0["changed"] == .bool(true) })
            #expect(changed["examples"]?.arrayValue?.first?.objectValue?["baselineRule"]?.stringValue == "monthly-loyal-full-price")
            let line = try #require(files["retention.rules.yaml"]?.components(separatedBy: "\n").firstIndex { $0.contains("JPY: money('1500 JPY')") }) + 1
            let diff = report["diff"]?.arrayValue?.compactMap(\.objectValue) ?? []
            #expect(diff.count == 1, "\(diff)")
            let item = try #require(diff.first)
            #expect(item["change"]?.stringValue == "changed" && item["kind"]?.stringValue == "constant"
                && item["rule"]?.stringValue == "monthlyFullPrice" && item["section"] == nil)
            #expect(item["file"]?.stringValue?.hasSuffix("retention.rules.yaml") == true && item["line"]?.integerValue == Int64(line))
            #expect(item["detail"]?.stringValue == "JPY: 1000 JPY → 1500 JPY")
        }
    }
}

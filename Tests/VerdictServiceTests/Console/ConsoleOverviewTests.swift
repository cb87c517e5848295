import Foundation
import Testing
import VerdictStorage

@testable import VerdictService

/// The Overview for a chosen period: counts, charts by day, notifications by type and both
/// comparisons of treatment against holdout, read from the daily statistics.
@Suite("Console: the Overview's period")
struct ConsoleOverviewTests {
    static let october1: Int64 = 1_790_812_800_000 // 2026-10-01T00:00:00Z

    static func decision(_ index: Int, day: Int64, heldOut: Bool, currency: String = "USD") -> OfferDecisionRecord {
        OfferDecisionRecord(
            id: "00000000-0000-4000-8000-\(String(format: "%012d", index))", originalTransactionId: "o-\(index)",
            notificationUUID: "n-\(index)", trigger: "EXPIRED", bundleHash: "h", ruleId: "lapsed-monthly", ruleLine: 12,
            offerId: "winback-50", offerType: "WIN_BACK", productId: "p", heldOut: heldOut,
            decidedAt: october1 + day * 86_400_000 + Int64(index), expiresAt: october1 + (day + 7) * 86_400_000, json: "{}",
            currency: currency)
    }

    @Test func theOverviewShowsThePeriodsCountsChartsNotificationsAndRevenue() async throws {
        try await RouterHarness.with(extraSettings: ["VERDICT_API_TOKENS": ConsoleTests.tokens]) { harness in
            let repository = harness.service.apps.first.repository
            // Day 0: 6 offers and 3 held out; day 1: 2 offers; a decision in November lies outside the period.
            let records = (0..<6).map { Self.decision($0, day: 0, heldOut: false) } + (6..<9).map { Self.decision($0, day: 0, heldOut: true) }
                + (9..<11).map { Self.decision($0, day: 1, heldOut: false) } + [Self.decision(11, day: 40, heldOut: false)]
            for record in records { _ = try await repository.insertOfferDecision(record, followUp: nil, caps: []) }
            // Treatment customers 0–3 paid 4.99, holdout customer 6 paid 9.99, after their decisions.
            for customer in [0, 1, 2, 3, 6] {
                _ = try await repository.recordOfferRevenue(
                    .purchase(originalTransactionId: "o-\(customer)", transactionId: "t-\(customer)",
                              purchasedAt: Self.october1 + 2 * 86_400_000, amount: customer == 6 ? 9_990 : 4_990, currency: "USD"),
                    window: 30 * 86_400_000, at: Self.october1 + 2 * 86_400_000)
            }
            for (index, type) in ["DID_RENEW", "DID_RENEW", "EXPIRED"].enumerated() {
                _ = try await repository.insertNotification(NewNotification(
                    notificationUUID: "u-\(index)", notificationType: type, subtype: type == "EXPIRED" ? "VOLUNTARY" : nil,
                    environment: "Sandbox", bundleId: "b", originalTransactionId: "o-1", transactionId: "t", signedDate: Self.october1,
                    receivedAt: Self.october1 + 1_000, source: .delivery, signedPayload: "x", decodedJSON: "{}"),
                    processingJob: NewJob(kind: "process-notification", payload: "{}", runAt: 0, createdAt: 0))
            }
            let session = try #require(ConsoleTests.cookie("verdict_session", in: try await ConsoleTests.signIn(harness, token: ConsoleTests.viewer)))
            func page(_ path: String) async throws -> String {
                let answer = try await harness.send(.get, path, token: nil, headers: [.cookie: "verdict_session=\(session.value)"])
                #expect(answer.status == 200, "\(path)")
                return String(decoding: answer.body, as: UTF8.self)
            }
            let html = try await page("/console/overview?since=2026-10-01&until=2026-10-02")
            #expect(html.contains(#"value="2026-10-01""#) && html.contains(#"value="2026-10-02""#))
            #expect(html.contains(#"<div class="figure">3</div><div>notifications</div>"#))
            #expect(html.contains(#"<div class="figure">11</div><div>offer decisions</div>"#), "November's decision is outside")
            #expect(html.contains(#"<div class="figure">8</div><div>offers made</div>"#))
            #expect(html.contains(#"<div class="figure">3</div><div>held out</div>"#))
            // Charts by day, with the numbers in a table.
            #expect(html.contains("aria-labelledby=\"decisions-by-day-title\"") && html.contains("aria-labelledby=\"activity-by-day-title\""))
            #expect(html.contains("<title>2026-10-01: offers made 6</title>") && html.contains("<title>2026-10-02: offers made 2</title>"))
            #expect(html.contains("<tr><th scope=\"row\">2026-10-01</th><td>3</td><td>9</td><td>6</td><td>3</td><td>0</td></tr>"))
            // Notifications by type, most frequent first.
            let renew = try #require(html.range(of: "<code>DID_RENEW</code></th><td>—</td><td>2</td>"))
            let expired = try #require(html.range(of: "<code>EXPIRED</code></th><td>VOLUNTARY</td><td>1</td>"))
            #expect(renew.lowerBound < expired.lowerBound)
            // Save rate and revenue, with their methods named.
            #expect(html.contains("Newcombe") && html.contains("Welch"))
            #expect(html.contains("<td>USD</td><td>8 · 2.50 USD</td><td>3 · 3.33 USD</td>"), "treatment 4 × 4.99 / 8, holdout 9.99 / 3")
            // Another period: nothing of October.
            let november = try await page("/console/overview?since=2026-11-01&until=2026-11-30")
            #expect(november.contains(#"<div class="figure">1</div><div>offer decisions</div>"#))
            #expect(november.contains("No notification in the period."))
            // A preset and nonsense both answer a page.
            #expect(try await page("/console/overview?days=7").contains("aria-current=\"true\">7 days"))
            _ = try await page("/console/overview?since=garbage&until=2026-13-45&days=-3")
        }
    }
}

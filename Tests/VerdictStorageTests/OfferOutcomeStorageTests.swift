import Testing

@testable import VerdictStorage

/// Outcomes are credited only inside each decision's attribution window: the customer must act no
/// later than the window after the offer's expiry (or after a decision without an offer).
@Suite("Storage: offer outcomes and the attribution window")
struct OfferOutcomeStorageTests {
    static let day: Int64 = 86_400_000
    static let window = 30 * day

    static func decision(_ id: String, decidedAt: Int64, expiresAt: Int64?, offer: String? = "promo",
                         heldOut: Bool = false) -> OfferDecisionRecord {
        OfferDecisionRecord(
            id: id, originalTransactionId: "o-1", notificationUUID: "n-\(id)", trigger: "AUTO_RENEW_DISABLED",
            bundleHash: "h", ruleId: "r", ruleLine: 1, offerId: offer, offerType: offer.map { _ in "PROMOTIONAL" },
            productId: "p", heldOut: heldOut, decidedAt: decidedAt, expiresAt: expiresAt, json: "{}")
    }

    static func outcome(_ repository: any VerdictRepository, actedAt: Int64, offer: String? = nil) async throws -> Int {
        try await repository.recordOfferOutcome(
            originalTransactionId: "o-1", offerIdentifier: offer, retained: true, notificationUUID: "back-\(actedAt)",
            actedAt: actedAt, attributionWindow: window, at: actedAt)
    }

    @Test("a return on the window's last millisecond counts; one millisecond later does not", arguments: TestBackend.selected)
    func windowEdges(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            // An offer decided on day 0, pending for 7 days: its window ends on day 37.
            _ = try await repository.insertOfferDecision(Self.decision("a", decidedAt: 0, expiresAt: 7 * Self.day), followUp: nil, caps: [])
            #expect(try await Self.outcome(repository, actedAt: 37 * Self.day + 1) == 0)
            #expect(try await repository.offerDecision(id: "a")?.outcome == nil)
            #expect(try await Self.outcome(repository, actedAt: 37 * Self.day, offer: "promo") == 1)
            #expect(try await repository.offerDecision(id: "a")?.outcome == "redeemed")

            // A decision without an offer (held out): its window runs from the decision itself.
            _ = try await repository.insertOfferDecision(
                Self.decision("b", decidedAt: 100 * Self.day, expiresAt: nil, heldOut: true), followUp: nil, caps: [])
            #expect(try await Self.outcome(repository, actedAt: 130 * Self.day + 1) == 0)
            #expect(try await Self.outcome(repository, actedAt: 130 * Self.day) == 1)
            #expect(try await repository.offerDecision(id: "b")?.outcome == "retained")

            // Two years later: nothing open is credited.
            _ = try await repository.insertOfferDecision(Self.decision("c", decidedAt: 200 * Self.day, expiresAt: 207 * Self.day), followUp: nil, caps: [])
            #expect(try await Self.outcome(repository, actedAt: 930 * Self.day) == 0)
            #expect(try await repository.offerDecision(id: "c")?.outcome == nil)
        }
    }
}

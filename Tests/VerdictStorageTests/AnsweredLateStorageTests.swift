import Testing
import VerdictTestSupport

@testable import VerdictStorage

/// A cancel-page decision whose answer reached Apple after its deadline (the App Store showed its
/// fallback) is marked answered late: it then uses no cap, is not pending, and its queued webhook
/// event is withdrawn; the mark survives a read and happens once.
@Suite("Storage: realtime decisions answered late")
struct AnsweredLateStorageTests {
    static func decision(_ id: String, decidedAt: Int64) -> OfferDecisionRecord {
        OfferDecisionRecord(
            id: id, originalTransactionId: "o-1", notificationUUID: "request-\(id)", trigger: "REALTIME_REQUEST",
            bundleHash: "h", ruleId: "r", ruleLine: 1, offerId: "promo", offerType: "PROMOTIONAL", productId: "p",
            heldOut: false, decidedAt: decidedAt, expiresAt: decidedAt + 1_000_000, json: "{}", customerUnit: "o-1")
    }

    static func event(_ id: String, at: Int64) -> NewJob {
        NewJob(kind: "webhook", payload: "{}", dedupeKey: "webhook:\(id)", runAt: at + 5_700, createdAt: at)
    }

    @Test("a late decision frees its cap, is not pending, and its queued event is withdrawn", arguments: TestBackend.selected)
    func lateDecisionsUseNoCap(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { (repository: any VerdictRepository, _: TestDatabase) async throws in
            let cap = OfferCap(scope: .customer("o-1"), max: 1, since: 0)
            #expect(try await repository.insertOfferDecision(Self.decision("a", decidedAt: 100), followUp: Self.event("a", at: 100), caps: [cap])
                    == .stored(Self.decision("a", decidedAt: 100)))
            // The one offer a customer may get is used: the next decision is capped.
            #expect(try await repository.insertOfferDecision(Self.decision("b", decidedAt: 200), followUp: nil, caps: [cap]) == .capped(cap))
            #expect(try await repository.pendingOffer(originalTransactionId: "o-1", now: 300)?.id == "a")
            #expect(try await repository.jobs(state: .queued, limit: 10).map(\.job.dedupeKey) == ["webhook:a"])

            #expect(try await repository.markAnsweredLate(decisionId: "a", withdrawing: "webhook:a"))
            #expect(try await repository.offerDecision(id: "a")?.answeredLate == true)
            #expect(try await repository.grantedOffers(.customer("o-1"), since: 0) == 0)
            #expect(try await repository.grantedOffers(.offer("promo"), since: 0) == 0)
            #expect(try await repository.pendingOffer(originalTransactionId: "o-1", now: 300) == nil)
            #expect(try await repository.jobs(state: .queued, limit: 10).isEmpty, "the event Apple's fallback made untrue is withdrawn")
            // Marked once; an unknown decision changes nothing.
            #expect(try await repository.markAnsweredLate(decisionId: "a", withdrawing: "webhook:a") == false)
            #expect(try await repository.markAnsweredLate(decisionId: "unknown", withdrawing: nil) == false)

            // The cap is free again for a decision Apple does show.
            #expect(try await repository.insertOfferDecision(Self.decision("c", decidedAt: 400), followUp: nil, caps: [cap])
                    == .stored(Self.decision("c", decidedAt: 400)))
            #expect(try await repository.pendingOffer(originalTransactionId: "o-1", now: 500)?.id == "c")
            #expect(try await repository.offerDecision(id: "c")?.answeredLate == false)
        }
    }

    @Test("an event already sent stays sent: only a queued one is withdrawn", arguments: TestBackend.selected)
    func onlyQueuedEventsAreWithdrawn(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { (repository: any VerdictRepository, _: TestDatabase) async throws in
            _ = try await repository.insertOfferDecision(Self.decision("a", decidedAt: 100), followUp: Self.event("a", at: 100), caps: [])
            let claimed = try await repository.claimJobs(
                owner: "worker", limit: 1, leaseMilliseconds: 60_000, now: 10_000, kinds: nil, includeExpiredLeases: false)
            #expect(claimed.count == 1)
            #expect(try await repository.markAnsweredLate(decisionId: "a", withdrawing: "webhook:a"))
            #expect(try await repository.jobs(state: .running, limit: 10).map(\.job.dedupeKey) == ["webhook:a"])
        }
    }
}

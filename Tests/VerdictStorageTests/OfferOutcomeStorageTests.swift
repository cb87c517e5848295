import Testing
import VerdictTestSupport

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
        try await repository.recordCustomerAction(
            CustomerActionEvent(originalTransactionId: "o-1", action: .reenabled, offerIdentifiers: offer.map { [$0] } ?? [],
                                notificationUUID: "back-\(actedAt)", actedAt: actedAt),
            attributionWindow: window, at: actedAt)
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

    @Test("a cancel marks only open cancel-page decisions and leaves them open; a stay then replaces it, its offerType kept",
          arguments: TestBackend.selected)
    func actions(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            var realtime = Self.decision("rt", decidedAt: 0, expiresAt: nil, offer: nil)
            realtime.trigger = "REALTIME_REQUEST"
            _ = try await repository.insertOfferDecision(realtime, followUp: nil, caps: [])
            _ = try await repository.insertOfferDecision(Self.decision("off", decidedAt: 0, expiresAt: nil, offer: nil), followUp: nil, caps: [])
            func act(_ action: CustomerAction, at: Int64, offerType: Int32? = nil) async throws -> Int {
                try await repository.recordCustomerAction(
                    CustomerActionEvent(originalTransactionId: "o-1", action: action, offerType: offerType,
                                        notificationUUID: "act-\(at)", actedAt: at),
                    attributionWindow: Self.window, at: at)
            }
            #expect(try await act(.cancelled, at: Self.day) == 1)
            let cancelled = try #require(try await repository.offerDecision(id: "rt"))
            #expect(cancelled.action == .cancelled && cancelled.outcome == nil && cancelled.outcomeAt == Self.day)
            #expect(try await repository.offerDecision(id: "off")?.action == nil)
            // A second cancel changes nothing; the customer coming back with an offer type Verdict
            // does not know closes both, the raw value kept.
            #expect(try await act(.cancelled, at: 2 * Self.day) == 0)
            #expect(try await act(.reenabled, at: 3 * Self.day, offerType: 9) == 2)
            for id in ["rt", "off"] {
                let record = try #require(try await repository.offerDecision(id: id))
                #expect(record.outcome == "retained" && record.action == .reenabled && record.actionOfferType == 9)
            }
            // Closed decisions take no later action.
            #expect(try await act(.cancelled, at: 4 * Self.day) == 0)
            #expect(try await act(.renewed, at: 4 * Self.day) == 0)
        }
    }

    @Test("seat losses mark open decisions of any trigger and leave them open, the first one kept; added seats close them as a stay",
          arguments: TestBackend.selected)
    func seatActions(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            _ = try await repository.insertOfferDecision(Self.decision("a", decidedAt: 0, expiresAt: 7 * Self.day), followUp: nil, caps: [])
            var seats = Self.decision("b", decidedAt: 0, expiresAt: nil, offer: nil)
            seats.trigger = "DECREASE_QUANTITY"
            _ = try await repository.insertOfferDecision(seats, followUp: nil, caps: [])
            func act(_ action: CustomerAction, at: Int64, offers: [String] = []) async throws -> Int {
                try await repository.recordCustomerAction(
                    CustomerActionEvent(originalTransactionId: "o-1", action: action, offerIdentifiers: offers,
                                        notificationUUID: "act-\(action.rawValue)-\(at)", actedAt: at),
                    attributionWindow: Self.window, at: at)
            }
            #expect(!CustomerAction.seatsRefunded.stayed && !CustomerAction.seatsUnclaimed.stayed)
            #expect(!CustomerAction.assignmentRevoked.stayed && CustomerAction.addedSeats.stayed)
            #expect(try await act(.seatsRefunded, at: Self.day) == 2)
            for id in ["a", "b"] {
                let record = try #require(try await repository.offerDecision(id: id))
                #expect(record.action == .seatsRefunded && record.outcome == nil && record.outcomeAt == Self.day)
            }
            // The first seat loss is kept; the decisions stay open.
            #expect(try await act(.seatsUnclaimed, at: 2 * Self.day) == 0)
            #expect(try await act(.assignmentRevoked, at: 2 * Self.day) == 0)
            #expect(try await repository.offerDecision(id: "b")?.action == .seatsRefunded)
            // Adding seats is a stay: it closes both (the offered one redeemed, as for any stay).
            #expect(try await act(.addedSeats, at: 3 * Self.day, offers: ["promo"]) == 2)
            #expect(try await repository.offerDecision(id: "a")?.outcome == "redeemed")
            let stayed = try #require(try await repository.offerDecision(id: "b"))
            #expect(stayed.outcome == "retained" && stayed.action == .addedSeats)
            #expect(try await act(.assignmentRevoked, at: 4 * Self.day) == 0)
        }
    }

    @Test("the offer made by the decision shows as redeemed; other open decisions keep the notification's action",
          arguments: TestBackend.selected)
    func redeemedBesideOthers(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            _ = try await repository.insertOfferDecision(Self.decision("a", decidedAt: 0, expiresAt: 7 * Self.day), followUp: nil, caps: [])
            _ = try await repository.insertOfferDecision(
                Self.decision("b", decidedAt: 0, expiresAt: 7 * Self.day, offer: "other"), followUp: nil, caps: [])
            let changed = try await repository.recordCustomerAction(
                CustomerActionEvent(originalTransactionId: "o-1", action: .appleOffer, offerIdentifiers: ["promo"], offerType: 5,
                                    notificationUUID: "x", actedAt: Self.day),
                attributionWindow: Self.window, at: Self.day)
            #expect(changed == 2)
            #expect(try await repository.offerDecision(id: "a")?.action == .redeemed)
            #expect(try await repository.offerDecision(id: "a")?.outcome == "redeemed")
            #expect(try await repository.offerDecision(id: "b")?.action == .appleOffer)
            #expect(try await repository.offerDecision(id: "b")?.actionOfferType == 5)
        }
    }
}

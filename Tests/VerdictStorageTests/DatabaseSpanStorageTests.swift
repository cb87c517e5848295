import Testing
import VerdictTestSupport

@testable import VerdictStorage

/// Inside a recording trace every repository call runs through the executor that learns its
/// statements for the span: the calls must behave exactly as outside one — prepared statements
/// (PostgreSQL's one-statement intake, prepared again on its second use), a capped decision's
/// locks and counts, reads. (No tracer is bootstrapped here: the spans are no-ops, the wrapping is real.)
@Suite("Storage: calls inside a recording trace")
struct DatabaseSpanStorageTests {
    @Test("the intake, a capped decision and reads work the same inside a recording trace", arguments: TestBackend.selected)
    func callsInsideATrace(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { (repository: any VerdictRepository, _: TestDatabase) async throws in
            try await TraceRecording.$isOn.withValue(true) {
                let first = try await repository.insertNotification(Fixture.notification("n-1"), processingJob: Fixture.job())
                guard case .inserted(let jobId) = first else { Issue.record("not inserted: \(first)"); return }
                #expect(try await repository.insertNotification(Fixture.notification("n-1"), processingJob: Fixture.job()) == .duplicate)
                if case .inserted = try await repository.insertNotification(Fixture.notification("n-2"), processingJob: Fixture.job()) {
                } else { Issue.record("the second notification was not inserted") }
                #expect(try await repository.notification(uuid: "n-1")?.jobId == jobId)

                let cap = OfferCap(scope: .customer("o-1"), max: 1, since: 0)
                let decision = AnsweredLateStorageTests.decision("a", decidedAt: 100)
                #expect(try await repository.insertOfferDecision(decision, followUp: nil, caps: [cap, OfferCap(scope: .offer("promo"), max: 5, since: 0)])
                        == .stored(decision))
                #expect(try await repository.insertOfferDecision(AnsweredLateStorageTests.decision("b", decidedAt: 200), followUp: nil, caps: [cap])
                        == .capped(cap))
                #expect(try await repository.offerDecision(id: "a") == decision)
            }
        }
    }
}

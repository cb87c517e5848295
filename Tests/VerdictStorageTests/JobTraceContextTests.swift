import Testing
import VerdictTestSupport

@testable import VerdictStorage

/// Each job keeps the `traceparent` of the work that enqueued it, through every way a job is
/// stored and claimed, on both databases; a deduplicated enqueue answers the existing job's.
@Suite("Storage: jobs keep their trace context")
struct JobTraceContextTests {
    static let first = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"
    static let second = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

    @Test("enqueue, claim and read keep the traceparent; a deduplicated enqueue answers the existing one",
          arguments: TestBackend.selected)
    func enqueuedJobs(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            var traced = Fixture.job(runAt: 0, dedupeKey: "sync:1")
            traced.traceParent = Self.first
            let created = try await repository.enqueue(traced)
            #expect(created.created && created.traceParent == nil)
            var again = Fixture.job(runAt: 0, dedupeKey: "sync:1")
            again.traceParent = Self.second
            let deduplicated = try await repository.enqueue(again)
            #expect(!deduplicated.created && deduplicated.id == created.id && deduplicated.traceParent == Self.first)
            let untraced = try await repository.enqueue(Fixture.job(runAt: 0)).id

            let claimed = try await repository.claimJobs(owner: "w", limit: 10, leaseMilliseconds: 1_000, now: 1, kinds: nil)
            #expect(claimed.first { $0.id == created.id }?.job.traceParent == Self.first)
            #expect(claimed.first { $0.id == untraced }?.job.traceParent == nil)
            #expect(try await repository.job(id: created.id)?.job.traceParent == Self.first)
        }
    }

    @Test("a notification's processing job keeps the traceparent of its intake", arguments: TestBackend.selected)
    func processingJobs(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            var job = Fixture.job(runAt: 0)
            job.traceParent = Self.second
            guard case .inserted(let jobId) = try await repository.insertNotification(Fixture.notification("n-traced"), processingJob: job)
            else { Issue.record("not inserted"); return }
            #expect(try await repository.job(id: jobId)?.job.traceParent == Self.second)
        }
    }
}

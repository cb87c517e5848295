import Testing
import VerdictTestSupport

@testable import VerdictStorage

@Suite("Storage: job queue")
struct JobQueueTests {
    @Test("claim order: deadline first, then runAt, then id; only runnable jobs; kinds filter", arguments: TestBackend.selected)
    func claimOrder(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            let late = try await repository.enqueue(Fixture.job(runAt: 10)).id
            let early = try await repository.enqueue(Fixture.job(runAt: 5)).id
            let deadline200 = try await repository.enqueue(Fixture.job(runAt: 50, deadline: 200)).id
            let deadline100 = try await repository.enqueue(Fixture.job(runAt: 60, deadline: 100)).id
            let sameRunAt = try await repository.enqueue(Fixture.job(runAt: 10)).id
            _ = try await repository.enqueue(Fixture.job(runAt: 5_000)) // not runnable yet
            let other = try await repository.enqueue(Fixture.job(kind: "consumption", runAt: 1)).id

            #expect(try await repository.claimJobs(owner: "w", limit: 10, leaseMilliseconds: 1_000, now: 100,
                                                   kinds: []).isEmpty)
            let claimed = try await repository.claimJobs(owner: "w", limit: 10, leaseMilliseconds: 1_000, now: 100,
                                                         kinds: ["process-notification"])
            #expect(claimed.map(\.id) == [deadline100, deadline200, early, late, sameRunAt])
            for job in claimed {
                #expect(job.state == .running && job.attempts == 1 && job.leaseOwner == "w" && job.leaseUntil == 1_100)
            }
            let rest = try await repository.claimJobs(owner: "w", limit: 10, leaseMilliseconds: 1_000, now: 100, kinds: nil)
            #expect(rest.map(\.id) == [other])
            let limited = try await repository.claimJobs(owner: "w", limit: 1, leaseMilliseconds: 1_000, now: 6_000, kinds: nil)
            #expect(limited.count == 1)
        }
    }

    @Test("without includeExpiredLeases only queued jobs are claimed", arguments: TestBackend.selected)
    func expiredLeasesOnlyWhenAsked(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            let crashed = try await repository.enqueue(Fixture.job(runAt: 0)).id
            #expect(try await repository.claimJobs(owner: "A", limit: 1, leaseMilliseconds: 100, now: 0, kinds: nil).map(\.id)
                    == [crashed])
            let queued = try await repository.enqueue(Fixture.job(runAt: 50)).id
            let skipping = try await repository.claimJobs(owner: "B", limit: 5, leaseMilliseconds: 100, now: 500, kinds: nil,
                                                          includeExpiredLeases: false)
            #expect(skipping.map(\.id) == [queued])
            let sweeping = try await repository.claimJobs(owner: "B", limit: 5, leaseMilliseconds: 100, now: 500, kinds: nil,
                                                          includeExpiredLeases: true)
            #expect(sweeping.map(\.id) == [crashed])
        }
    }

    @Test("kinds filter matches exactly, whatever characters a kind has", arguments: TestBackend.selected)
    func kindsFilterQuoting(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            let odd = #"we"ird\kind,{x} NULL"#
            let oddId = try await repository.enqueue(Fixture.job(kind: odd, runAt: 1)).id
            let plainId = try await repository.enqueue(Fixture.job(kind: "we", runAt: 1)).id
            #expect(try await repository.claimJobs(owner: "w", limit: 5, leaseMilliseconds: 1_000, now: 10,
                                                   kinds: ["weird", "NULL", "x"]).isEmpty)
            #expect(try await repository.claimJobs(owner: "w", limit: 5, leaseMilliseconds: 1_000, now: 10,
                                                   kinds: [odd]).map(\.id) == [oddId])
            #expect(try await repository.claimJobs(owner: "w", limit: 5, leaseMilliseconds: 1_000, now: 10,
                                                   kinds: ["we"]).map(\.id) == [plainId])
        }
    }

    @Test("a deep backlog is claimed from its head, a few at a time, in claim order", arguments: TestBackend.selected)
    func deepBacklog(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            var ids: [Int64] = []
            for runAt in (0..<300).reversed() {
                ids.append(try await repository.enqueue(Fixture.job(runAt: Int64(runAt))).id)
            }
            let inClaimOrder = Array(ids.reversed())
            var claimed: [Int64] = []
            while claimed.count < 12 {
                let batch = try await repository.claimJobs(owner: "w", limit: 3, leaseMilliseconds: 1_000, now: 1_000,
                                                           kinds: nil)
                #expect(batch.count == 3)
                claimed += batch.map(\.id)
            }
            #expect(claimed == Array(inClaimOrder.prefix(12)))
        }
    }

    @Test("leases: no double claim, expired lease re-claimed, old owner cannot complete", arguments: TestBackend.selected)
    func leases(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            let inserted = try await repository.insertNotification(Fixture.notification("n-lease"), processingJob: Fixture.job())
            guard case .inserted(let id) = inserted else { Issue.record("not inserted"); return }
            #expect(try await repository.claimJobs(owner: "A", limit: 5, leaseMilliseconds: 1_000, now: 0, kinds: nil).map(\.id) == [id])
            #expect(try await repository.claimJobs(owner: "B", limit: 5, leaseMilliseconds: 1_000, now: 999, kinds: nil).isEmpty)
            let reclaimed = try await repository.claimJobs(owner: "B", limit: 5, leaseMilliseconds: 1_000, now: 1_000, kinds: nil)
            #expect(reclaimed.map(\.id) == [id])
            #expect(reclaimed.first?.attempts == 2)
            #expect(reclaimed.first?.leaseOwner == "B")

            #expect(!(try await repository.completeJob(id: id, owner: "A", result: "stale", now: 1_100)))
            #expect(!(try await repository.failJob(id: id, owner: "A", error: "stale", retryAt: nil, countsAsAttempt: true, now: 1_100)))
            #expect(try await repository.notification(uuid: "n-lease")?.state == .received)

            #expect(try await repository.completeJob(id: id, owner: "B", result: #"{"ok":true}"#, now: 1_200))
            #expect(!(try await repository.completeJob(id: id, owner: "B", result: "twice", now: 1_300)))
            let job = try #require(try await repository.job(id: id))
            #expect(job.state == .done && job.leaseOwner == nil && job.updatedAt == 1_200)
            let notification = try #require(try await repository.notification(uuid: "n-lease"))
            #expect(notification.state == .processed)
            #expect(notification.result == #"{"ok":true}"#)
            #expect(notification.processedAt == 1_200)
            #expect(notification.processedCount == 1)
            #expect(notification.attempts == 2)
            #expect(try await repository.claimJobs(owner: "C", limit: 5, leaseMilliseconds: 1_000, now: 9_999, kinds: nil).isEmpty)
        }
    }

    @Test("failJob: retry at a later time, then dead; the notification fails", arguments: TestBackend.selected)
    func retryAndDead(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            let inserted = try await repository.insertNotification(Fixture.notification("n-fail"), processingJob: Fixture.job())
            guard case .inserted(let id) = inserted else { Issue.record("not inserted"); return }
            _ = try await repository.claimJobs(owner: "A", limit: 1, leaseMilliseconds: 1_000, now: 0, kinds: nil)
            #expect(try await repository.failJob(id: id, owner: "A", error: "timeout", retryAt: 500, countsAsAttempt: true, now: 10))
            var job = try #require(try await repository.job(id: id))
            #expect(job.state == .queued && job.job.runAt == 500 && job.lastError == "timeout")
            #expect(job.leaseOwner == nil && job.leaseUntil == nil)
            var notification = try #require(try await repository.notification(uuid: "n-fail"))
            #expect(notification.state == .received && notification.lastError == "timeout" && notification.attempts == 1)

            #expect(try await repository.claimJobs(owner: "A", limit: 1, leaseMilliseconds: 1_000, now: 499, kinds: nil).isEmpty)
            #expect(try await repository.claimJobs(owner: "A", limit: 1, leaseMilliseconds: 1_000, now: 500, kinds: nil).count == 1)
            #expect(try await repository.failJob(id: id, owner: "A", error: "bad payload", retryAt: nil, countsAsAttempt: true, now: 600))
            job = try #require(try await repository.job(id: id))
            #expect(job.state == .dead && job.lastError == "bad payload" && job.attempts == 2)
            notification = try #require(try await repository.notification(uuid: "n-fail"))
            #expect(notification.state == .failed && notification.result == "bad payload")
            #expect(notification.processedCount == 0)
            #expect(try await repository.jobs(state: .dead, limit: 10).map(\.id) == [id])
            #expect(try await repository.claimJobs(owner: "A", limit: 1, leaseMilliseconds: 1_000, now: 99_999, kinds: nil).isEmpty)
        }
    }

    @Test("a job that waits (countsAsAttempt false) gets its attempt back", arguments: TestBackend.selected)
    func waitingKeepsAttempts(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            let id = try await repository.enqueue(Fixture.job(runAt: 0)).id
            for round in 0..<15 {
                let now = Int64(round) * 100
                #expect(try await repository.claimJobs(owner: "A", limit: 1, leaseMilliseconds: 50, now: now, kinds: nil).map(\.id) == [id])
                #expect(try await repository.failJob(id: id, owner: "A", error: "waiting for history", retryAt: now + 100,
                                                     countsAsAttempt: false, now: now))
            }
            let job = try #require(try await repository.job(id: id))
            #expect(job.state == .queued && job.attempts == 0 && job.lastError == "waiting for history")
        }
    }

    @Test("a job whose lease ran out on every allowed attempt goes dead instead of being claimed again",
          arguments: TestBackend.selected)
    func abandonedJobsAreBuried(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            var job = Fixture.job()
            job.maxAttempts = 2
            let inserted = try await repository.insertNotification(Fixture.notification("n-crash"), processingJob: job)
            guard case .inserted(let id) = inserted else { Issue.record("not inserted"); return }
            // Two workers each die holding it (their leases simply run out)…
            #expect(try await repository.claimJobs(owner: "A", limit: 1, leaseMilliseconds: 100, now: 0, kinds: nil).map(\.id) == [id])
            #expect(try await repository.claimJobs(owner: "B", limit: 1, leaseMilliseconds: 100, now: 200, kinds: nil).map(\.id) == [id])
            // …so the third claim buries it rather than handing it to a third victim.
            #expect(try await repository.claimJobs(owner: "C", limit: 1, leaseMilliseconds: 100, now: 400, kinds: nil).isEmpty)
            let buried = try #require(try await repository.job(id: id))
            #expect(buried.state == .dead && buried.attempts == 2 && buried.leaseOwner == nil)
            #expect(buried.lastError?.hasPrefix("abandoned: the lease ran out on each of its 2 attempts") == true)
            let notification = try #require(try await repository.notification(uuid: "n-crash"))
            #expect(notification.state == .failed && notification.result == buried.lastError)
            // A lease still running is left alone.
            let other = try await repository.enqueue(Fixture.job(runAt: 400)).id
            _ = try await repository.claimJobs(owner: "D", limit: 1, leaseMilliseconds: 1_000, now: 400, kinds: nil)
            _ = try await repository.claimJobs(owner: "E", limit: 1, leaseMilliseconds: 1_000, now: 500, kinds: nil)
            #expect(try await repository.job(id: other)?.state == .running)
        }
    }

    @Test("dedupe key: one non-dead job per key", arguments: TestBackend.selected)
    func dedupeKey(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            let first = try await repository.enqueue(Fixture.job(kind: "consumption", dedupeKey: "tx-1"))
            #expect(first.created)
            let second = try await repository.enqueue(Fixture.job(kind: "consumption", dedupeKey: "tx-1", payload: "{\"b\":1}"))
            #expect(second == JobEnqueueResult(id: first.id, created: false))
            #expect(try await repository.enqueue(Fixture.job(kind: "consumption", dedupeKey: "tx-2")).created)
            #expect(try await repository.enqueue(Fixture.job(kind: "consumption")).created)
            #expect(try await repository.enqueue(Fixture.job(kind: "consumption")).created)

            _ = try await repository.claimJobs(owner: "A", limit: 10, leaseMilliseconds: 1_000, now: 0, kinds: nil)
            #expect(try await repository.failJob(id: first.id, owner: "A", error: "gave up", retryAt: nil, countsAsAttempt: true, now: 1))
            let third = try await repository.enqueue(Fixture.job(kind: "consumption", dedupeKey: "tx-1"))
            #expect(third.created && third.id != first.id)
            // A completed (done) job still holds its key.
            #expect(!(try await repository.enqueue(Fixture.job(kind: "consumption", dedupeKey: "tx-2")).created))
        }
    }

    @Test("releaseLeases gives jobs back, runnable now", arguments: TestBackend.selected)
    func releaseLeases(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            for _ in 0..<3 { _ = try await repository.enqueue(Fixture.job(runAt: 0)) }
            let mine = try await repository.enqueue(Fixture.job(runAt: 0)).id
            let claimed = try await repository.claimJobs(owner: "A", limit: 3, leaseMilliseconds: 60_000, now: 10, kinds: nil)
            #expect(try await repository.claimJobs(owner: "B", limit: 1, leaseMilliseconds: 60_000, now: 10, kinds: nil).map(\.id) == [mine])
            #expect(try await repository.releaseLeases(owner: "A", now: 20) == 3)
            #expect(try await repository.releaseLeases(owner: "A", now: 21) == 0)
            for job in claimed {
                let stored = try #require(try await repository.job(id: job.id))
                #expect(stored.state == .queued && stored.leaseOwner == nil && stored.job.runAt == 20 && stored.attempts == 0)
            }
            #expect(try await repository.job(id: mine)?.state == .running)
            let again = try await repository.claimJobs(owner: "C", limit: 10, leaseMilliseconds: 1_000, now: 20, kinds: nil)
            #expect(Set(again.map(\.id)) == Set(claimed.map(\.id)))
        }
    }

    @Test("queue statistics per kind", arguments: TestBackend.selected)
    func statistics(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            #expect(try await repository.queueStatistics(now: 0) == QueueStatistics(kinds: []))
            _ = try await repository.enqueue(Fixture.job(kind: "a", runAt: 100))
            _ = try await repository.enqueue(Fixture.job(kind: "a", runAt: 400))
            _ = try await repository.enqueue(Fixture.job(kind: "a", runAt: 5_000)) // queued, not runnable
            let running = try await repository.enqueue(Fixture.job(kind: "b", runAt: 0)).id
            let dead = try await repository.enqueue(Fixture.job(kind: "b", runAt: 0)).id
            let done = try await repository.enqueue(Fixture.job(kind: "c", runAt: 0)).id
            _ = try await repository.claimJobs(owner: "w", limit: 10, leaseMilliseconds: 10_000, now: 0, kinds: ["b", "c"])
            try await repository.failJob(id: dead, owner: "w", error: "x", retryAt: nil, countsAsAttempt: true, now: 1)
            try await repository.completeJob(id: done, owner: "w", result: nil, now: 1)
            _ = running
            let statistics = try await repository.queueStatistics(now: 1_000)
            #expect(statistics.kinds == [
                .init(kind: "a", queued: 3, running: 0, dead: 0, oldestQueuedAge: 900),
                .init(kind: "b", queued: 0, running: 1, dead: 1, oldestQueuedAge: 0),
            ])
            #expect(statistics.queued == 3 && statistics.dead == 1)
        }
    }

    @Test("concurrent claimers on separate repositories claim every job exactly once", arguments: TestBackend.selected)
    func concurrentClaimers(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, database in
            let jobCount = 60
            for index in 0..<jobCount { _ = try await repository.enqueue(Fixture.job(runAt: Int64(index % 7))) }
            try await database.withRepositories(backend == .postgres ? 5 : 2, maximumConnections: 3) { others in
            let workers = [repository] + others
            let claims = try await withThrowingTaskGroup(of: [Int64].self) { group in
                for worker in 0..<12 {
                    group.addTask {
                        let repo = workers[worker % workers.count]
                        var mine: [Int64] = []
                        while true {
                            let jobs = try await repo.claimJobs(owner: "worker-\(worker)", limit: 3,
                                                                leaseMilliseconds: 600_000, now: 100, kinds: nil)
                            if jobs.isEmpty { break }
                            for job in jobs {
                                #expect(try await repo.completeJob(id: job.id, owner: "worker-\(worker)", result: nil, now: 101))
                                mine.append(job.id)
                            }
                        }
                        return mine
                    }
                }
                return try await group.reduce(into: [Int64]()) { $0 += $1 }
            }
            #expect(claims.count == jobCount)
            #expect(Set(claims).count == jobCount)
            #expect(try await repository.jobs(state: .done, limit: 1_000).count == jobCount)
            }
        }
    }
}

import Testing
import VerdictTestSupport

@testable import VerdictStorage

/// Two apps in one database: the notifications of one app (with their processing jobs and
/// states), its transactions, renewal info and customers are neither read nor changed through the
/// other, and the same id stored by both apps gives two independent rows. The job queue dedupes
/// per app but stays one queue: claims hand out every app's jobs, each saying its app.
@Suite("Storage: intake per app")
struct AppScopeIntakeStorageTests {
    static let appA = TestDatabase.appA
    static let appB = TestDatabase.appB

    /// Stores `notification` with a processing job (`runAt`, `maxAttempts`) and returns the job's id.
    static func insert(_ notification: NewNotification, runAt: Int64 = 0, maxAttempts: Int = 10,
                       into repository: any VerdictRepository) async throws -> Int64 {
        var job = Fixture.job(runAt: runAt)
        job.maxAttempts = maxAttempts
        guard case .inserted(let jobId) = try await repository.insertNotification(notification, processingJob: job) else {
            throw StorageError.queryFailed(reason: "\(notification.notificationUUID) was not inserted")
        }
        return jobId
    }

    @Test("a notification is its app's: the other app neither reads, lists, counts nor overwrites it",
          arguments: TestBackend.selected)
    func notifications(_ backend: TestBackend) async throws {
        try await TestDatabase.withApps(backend) { a, b, _ in
            let original = Fixture.notification("n-1", signedDate: 500)
            let jobId = try await Self.insert(original, into: a)
            #expect(try await a.job(id: jobId)?.app == Self.appA, "the processing job is the notification's app's")
            #expect(try await b.notification(uuid: "n-1") == nil)
            #expect(try await b.notifications(originalTransactionId: "otid-1", limit: 10).isEmpty)
            #expect(try await b.newestNotificationSignedDate() == nil)
            #expect(try await b.notificationCount() == 0)

            // The same UUID offered by B: a duplicate that neither reveals nor changes A's row.
            var offered = Fixture.notification("n-1", signedDate: 900)
            offered.decodedJSON = #"{"from":"b"}"#
            #expect(try await b.insertNotification(offered, processingJob: Fixture.job()) == .duplicate)
            #expect(try await b.notification(uuid: "n-1") == nil)
            #expect(try await b.notificationCount() == 0)
            #expect(try await a.notification(uuid: "n-1")?.notification == original)
            #expect(try await a.jobs(state: .queued, limit: 10).map(\.id) == [jobId], "no job for B's duplicate")

            // B's own notification about the same original transaction id.
            _ = try await Self.insert(Fixture.notification("n-2", signedDate: 700), into: b)
            let expected: [(any VerdictRepository, String, Int64)] = [(a, "n-1", 500), (b, "n-2", 700)]
            for (repository, uuid, newest) in expected {
                let listed = try await repository.notifications(originalTransactionId: "otid-1", limit: 10)
                #expect(listed.map(\.notification.notificationUUID) == [uuid])
                #expect(try await repository.newestNotificationSignedDate() == newest)
                #expect(try await repository.notificationCount() == 1)
            }
        }
    }

    @Test("one worker runs both apps' notification jobs; each outcome lands on its own app's notification",
          arguments: TestBackend.selected)
    func notificationStates(_ backend: TestBackend) async throws {
        try await TestDatabase.withApps(backend) { a, b, _ in
            let processed = try await Self.insert(Fixture.notification("n-a"), into: a)
            let failed = try await Self.insert(Fixture.notification("n-b"), into: b)
            let abandoned = try await Self.insert(Fixture.notification("n-crash"), maxAttempts: 1, into: b)

            let claimed = try await a.claimJobs(owner: "w", limit: 10, leaseMilliseconds: 100, now: 0, kinds: nil)
            #expect(Dictionary(uniqueKeysWithValues: claimed.map { ($0.id, $0.app) })
                    == [processed: Self.appA, failed: Self.appB, abandoned: Self.appB])
            // By job id, through either app's repository.
            #expect(try await b.completeJob(id: processed, owner: "w", result: #"{"ok":true}"#, now: 5))
            #expect(try await a.failJob(id: failed, owner: "w", error: "bad", retryAt: nil, countsAsAttempt: true, now: 6))
            // The third lease runs out on its only attempt: the next claim buries it.
            #expect(try await a.claimJobs(owner: "v", limit: 10, leaseMilliseconds: 100, now: 200, kinds: nil).isEmpty)

            let inA = try #require(try await a.notification(uuid: "n-a"))
            #expect(inA.state == .processed && inA.result == #"{"ok":true}"# && inA.processedCount == 1)
            let inB = try #require(try await b.notification(uuid: "n-b"))
            #expect(inB.state == .failed && inB.result == "bad")
            let crashed = try #require(try await b.notification(uuid: "n-crash"))
            #expect(crashed.state == .failed && crashed.result?.hasPrefix("abandoned") == true)
            #expect(try await a.notification(uuid: "n-b") == nil)
            #expect(try await b.notification(uuid: "n-a") == nil)
        }
    }

    @Test("waking a subscription's notification jobs wakes only this app's", arguments: TestBackend.selected)
    func wakeNotificationJobs(_ backend: TestBackend) async throws {
        try await TestDatabase.withApps(backend) { a, b, _ in
            let inA = try await Self.insert(Fixture.notification("n-a"), runAt: 1_000, into: a)
            let inB = try await Self.insert(Fixture.notification("n-b"), runAt: 1_000, into: b)
            #expect(try await b.wakeNotificationJobs(originalTransactionId: "otid-1", now: 5) == 1)
            #expect(try await a.job(id: inA)?.job.runAt == 1_000)
            #expect(try await b.job(id: inB)?.job.runAt == 5)
        }
    }

    @Test("the same transaction id and renewal info are one row per app, each moving forward on its own",
          arguments: TestBackend.selected)
    func transactionsAndRenewalInfo(_ backend: TestBackend) async throws {
        try await TestDatabase.withApps(backend) { a, b, _ throws in
            var tokened = Fixture.transaction("t-2", signedDate: 200, purchaseDate: 20)
            tokened.appAccountToken = "acct"
            let inA = [Fixture.transaction("t-1", signedDate: 200, purchaseDate: 10), tokened]
            for transaction in inA { #expect(try await a.recordTransaction(transaction)) }
            #expect(try await a.recordNotificationState(NotificationState(renewalInfo: NotificationStorageTests.renewalInfo(200, 1)))
                    .renewalInfoRecorded == true)

            // B's versions are older than A's, yet they are B's own rows (B writes through the
            // one-step notification state, A through the single writes).
            let inB = Fixture.transaction("t-1", signedDate: 100, product: "yearly")
            let stateB = NotificationState(transaction: inB, renewalInfo: NotificationStorageTests.renewalInfo(100, 0))
            #expect(try await b.recordNotificationState(stateB)
                    == NotificationStateOutcome(transactionRecorded: true, renewalInfoRecorded: true))
            #expect(try await b.recordTransaction(Fixture.transaction("t-1", signedDate: 300, product: "weekly")))

            #expect(try await a.transaction(id: "t-1") == inA[0], "B's newer version leaves A's alone")
            #expect(try await b.transaction(id: "t-1")?.productId == "weekly")
            #expect(try await b.transaction(id: "t-2") == nil)
            #expect(try await a.transactions(originalTransactionId: "otid-1") == inA)
            #expect(try await b.transactions(originalTransactionId: "otid-1").map(\.transactionId) == ["t-1"])
            #expect(try await a.transactions(appAccountToken: "acct") == [tokened])
            #expect(try await b.transactions(appAccountToken: "acct").isEmpty)
            #expect(try await a.renewalInfo(originalTransactionId: "otid-1")?.autoRenewStatus == 1)
            #expect(try await b.renewalInfo(originalTransactionId: "otid-1")?.autoRenewStatus == 0)
        }
    }

    @Test("customers are per app: links, history syncs and a customer's transactions stay in their app",
          arguments: TestBackend.selected)
    func customers(_ backend: TestBackend) async throws {
        try await TestDatabase.withApps(backend) { a, b, _ in
            try await NotificationStorageTests.link(CustomerLink(originalTransactionId: "o-1", appAccountToken: "acct", seenAt: 500), in: a)
            try await NotificationStorageTests.link(CustomerLink(originalTransactionId: "o-1", appTransactionId: "app-1", seenAt: 300), in: b)
            try await b.recordHistorySync(originalTransactionId: "o-1", revision: "rev-b", complete: true, at: 900)

            #expect(try await a.customer(originalTransactionId: "o-1")
                    == CustomerRecord(originalTransactionId: "o-1", appAccountToken: "acct", appTransactionId: nil, environment: nil,
                                      firstSeenAt: 500, historyRevision: nil, historySyncedAt: nil))
            #expect(try await b.customer(originalTransactionId: "o-1")
                    == CustomerRecord(originalTransactionId: "o-1", appAccountToken: nil, appTransactionId: "app-1", environment: nil,
                                      firstSeenAt: 300, historyRevision: "rev-b", historySyncedAt: 900))
            let relinked = NotificationState(customer: CustomerLink(originalTransactionId: "o-1", seenAt: 950))
            #expect(try await a.recordNotificationState(relinked).historyRevision == nil)
            #expect(try await b.recordNotificationState(relinked).historyRevision == "rev-b")

            // B's customer o-2 shares A's appAccountToken: it joins nothing of A's.
            try await NotificationStorageTests.link(CustomerLink(originalTransactionId: "o-2", appAccountToken: "acct", seenAt: 600), in: b)
            #expect(try await a.customers(appAccountToken: "acct").map(\.originalTransactionId) == ["o-1"])
            #expect(try await b.customers(appAccountToken: "acct").map(\.originalTransactionId) == ["o-2"])
            var tokenedInB = Fixture.transaction("t-8", otid: "o-8", signedDate: 10, purchaseDate: 8)
            tokenedInB.appAccountToken = "acct"
            try await b.recordTransaction(tokenedInB)
            try await b.recordTransaction(Fixture.transaction("t-9", otid: "o-2", signedDate: 10, purchaseDate: 9))
            try await a.recordTransaction(Fixture.transaction("t-1", otid: "o-1", signedDate: 10, purchaseDate: 1))
            #expect(try await a.customerTransactions(originalTransactionId: "o-1").map(\.transactionId) == ["t-1"])
            #expect(try await b.customerTransactions(originalTransactionId: "o-2").map(\.transactionId) == ["t-8", "t-9"])
            #expect(try await b.customerTransactions(originalTransactionId: "o-1").isEmpty)
        }
    }

    @Test("the job queue: enqueue stores the app, dedupe keys are per app, claims hand out every app's jobs",
          arguments: TestBackend.selected)
    func jobQueue(_ backend: TestBackend) async throws {
        try await TestDatabase.withApps(backend) { a, b, _ in
            let job = Fixture.job(kind: "consumption", dedupeKey: "tx-1")
            let inA = try await a.enqueue(job)
            let inB = try await b.enqueue(job)
            #expect(inA.created && inB.created && inA.id != inB.id, "the same key in another app is another job")
            #expect(try await a.enqueue(job) == JobEnqueueResult(id: inA.id, created: false))
            #expect(try await b.enqueue(job) == JobEnqueueResult(id: inB.id, created: false))
            let apps = [inA.id: Self.appA, inB.id: Self.appB]

            // Process-wide: by id, listed and counted whichever app's repository asks.
            #expect(try await a.job(id: inB.id)?.app == Self.appB)
            #expect(try await b.jobs(state: .queued, limit: 10).count == 2)
            #expect(try await a.queueStatistics(now: 0).queued == 2)

            // Queued jobs (PostgreSQL: `verdict_claim_queued_jobs`), then the same jobs again
            // once their leases expired: both claims say each job's app.
            let queued = try await a.claimJobs(owner: "w", limit: 10, leaseMilliseconds: 100, now: 0, kinds: nil)
            #expect(Dictionary(uniqueKeysWithValues: queued.map { ($0.id, $0.app) }) == apps)
            let expired = try await b.claimJobs(owner: "v", limit: 10, leaseMilliseconds: 100, now: 200, kinds: nil)
            #expect(Dictionary(uniqueKeysWithValues: expired.map { ($0.id, $0.app) }) == apps)
            #expect(try await a.releaseLeases(owner: "v", now: 300) == 2)
        }
    }
}

import Testing
import VerdictTestSupport

@testable import VerdictStorage

@Suite("Storage: notifications, transactions, renewal info, customers")
struct NotificationStorageTests {
    @Test("insert stores notification and job together; a duplicate changes nothing", arguments: TestBackend.selected)
    func insertAndDuplicate(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            let notification = Fixture.notification("n-1", signedDate: 500)
            let result = try await repository.insertNotification(notification, processingJob: Fixture.job(runAt: 10))
            guard case .inserted(let jobId) = result else { Issue.record("expected inserted"); return }
            let stored = try #require(try await repository.notification(uuid: "n-1"))
            #expect(stored.notification == notification)
            #expect(stored.state == .received)
            #expect(stored.jobId == jobId)
            #expect(stored.attempts == 0 && stored.processedCount == 0 && stored.result == nil)
            let job = try #require(try await repository.job(id: jobId))
            #expect(job.job.notificationUUID == "n-1")
            #expect(job.state == .queued)

            var again = notification
            again.decodedJSON = "{}"
            #expect(try await repository.insertNotification(again, processingJob: Fixture.job(runAt: 20)) == .duplicate)
            #expect(try await repository.notificationCount() == 1)
            #expect(try await repository.jobs(state: .queued, limit: 10).count == 1)
            #expect(try await repository.notification(uuid: "n-1")?.notification.decodedJSON == notification.decodedJSON)
            #expect(try await repository.notification(uuid: "missing") == nil)

            _ = try await repository.insertNotification(Fixture.notification("n-2", signedDate: 900), processingJob: Fixture.job())
            _ = try await repository.insertNotification(Fixture.notification("n-3", signedDate: 700), processingJob: Fixture.job())
            #expect(try await repository.newestNotificationSignedDate() == 900)
            #expect(try await repository.notificationCount() == 3)
        }
    }

    @Test("concurrent duplicate inserts from several repositories: exactly one inserted", arguments: TestBackend.selected)
    func concurrentDuplicates(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, database in
            try await database.withRepositories(3) { others in
            let snapshot = [repository] + others
            for round in 0..<5 {
                let uuid = "concurrent-\(round)"
                let results = try await withThrowingTaskGroup(of: NotificationInsertResult.self) { group in
                    for index in 0..<12 {
                        group.addTask {
                            try await snapshot[index % snapshot.count].insertNotification(
                                Fixture.notification(uuid), processingJob: Fixture.job())
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(results.filter { $0 != .duplicate }.count == 1)
            }
            #expect(try await repository.notificationCount() == 5)
            #expect(try await repository.jobs(state: .queued, limit: 100).count == 5)
            }
        }
    }

    @Test("transactions are forward-only by signedDate", arguments: TestBackend.selected)
    func forwardOnlyTransactions(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            #expect(try await repository.recordTransaction(Fixture.transaction("t-1", signedDate: 200, purchaseDate: 50)))
            #expect(!(try await repository.recordTransaction(Fixture.transaction("t-1", signedDate: 100, product: "old"))))
            #expect(!(try await repository.recordTransaction(Fixture.transaction("t-1", signedDate: 200, product: "same"))))
            #expect(try await repository.transaction(id: "t-1") == Fixture.transaction("t-1", signedDate: 200, purchaseDate: 50))
            var newer = Fixture.transaction("t-1", signedDate: 300, purchaseDate: 50)
            newer.revocationDate = 290
            newer.appAccountToken = "token"
            #expect(try await repository.recordTransaction(newer))
            #expect(try await repository.transaction(id: "t-1") == newer)
            #expect(try await repository.transaction(id: "missing") == nil)

            try await repository.recordTransaction(Fixture.transaction("t-0", signedDate: 10, purchaseDate: 10))
            try await repository.recordTransaction(Fixture.transaction("t-2", signedDate: 10, purchaseDate: nil))
            try await repository.recordTransaction(Fixture.transaction("t-9", otid: "other", signedDate: 10))
            let chain = try await repository.transactions(originalTransactionId: "otid-1")
            #expect(chain.map(\.transactionId) == ["t-0", "t-1", "t-2"])
        }
    }

    @Test("renewal info is forward-only by signedDate", arguments: TestBackend.selected)
    func forwardOnlyRenewalInfo(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ throws in

            #expect(try await Self.record(Self.renewalInfo(200, 1), in: repository))
            #expect(!(try await Self.record(Self.renewalInfo(150, 0), in: repository)))
            #expect(!(try await Self.record(Self.renewalInfo(200, 0), in: repository)))
            #expect(try await repository.renewalInfo(originalTransactionId: "otid-1") == Self.renewalInfo(200, 1))
            #expect(try await Self.record(Self.renewalInfo(250, nil), in: repository))
            #expect(try await repository.renewalInfo(originalTransactionId: "otid-1") == Self.renewalInfo(250, nil))
            #expect(try await repository.renewalInfo(originalTransactionId: "missing") == nil)
        }
    }

    /// Renewal info alone, through the notification-state write; true when it became the stored version.
    static func record(_ renewalInfo: RenewalInfoRecord, in repository: any VerdictRepository) async throws -> Bool {
        try await repository.recordNotificationState(NotificationState(renewalInfo: renewalInfo)).renewalInfoRecorded == true
    }

    /// A customer link alone, through the notification-state write.
    static func link(_ link: CustomerLink, in repository: any VerdictRepository) async throws {
        _ = try await repository.recordNotificationState(NotificationState(customer: link))
    }

    static func renewalInfo(_ signedDate: Int64, _ status: Int?) -> RenewalInfoRecord {
        RenewalInfoRecord(originalTransactionId: "otid-1", productId: "monthly", autoRenewStatus: status,
                          environment: "Sandbox", signedDate: signedDate, decodedJSON: "{\"v\":\(signedDate)}")
    }

    @Test("customers: link fills in identifiers, never erases, keeps the first sighting", arguments: TestBackend.selected)
    func customers(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            try await Self.link(CustomerLink(originalTransactionId: "o-1", appAccountToken: "acct", seenAt: 500), in: repository)
            try await Self.link(CustomerLink(originalTransactionId: "o-1", appTransactionId: "app-1",
                                             environment: "Production", seenAt: 300), in: repository)
            try await Self.link(CustomerLink(originalTransactionId: "o-1", seenAt: 900), in: repository)
            var expected = CustomerRecord(originalTransactionId: "o-1", appAccountToken: "acct", appTransactionId: "app-1",
                                          environment: "Production", firstSeenAt: 300, historyRevision: nil,
                                          historySyncedAt: nil)
            #expect(try await repository.customer(originalTransactionId: "o-1") == expected)

            try await Self.link(CustomerLink(originalTransactionId: "o-2", appAccountToken: "acct", seenAt: 700), in: repository)
            #expect(try await repository.customers(appAccountToken: "acct").map(\.originalTransactionId) == ["o-1", "o-2"])
            #expect(try await repository.customers(appAccountToken: "nobody").isEmpty)

            // A page with more to follow: the revision, not yet complete.
            try await repository.recordHistorySync(originalTransactionId: "o-1", revision: "rev-6", complete: false, at: 900)
            expected.historyRevision = "rev-6"
            #expect(try await repository.customer(originalTransactionId: "o-1") == expected)
            // The last page: complete. A later page without a revision keeps the one reached.
            try await repository.recordHistorySync(originalTransactionId: "o-1", revision: "rev-7", complete: true, at: 1_000)
            expected.historyRevision = "rev-7"
            expected.historySyncedAt = 1_000
            #expect(try await repository.customer(originalTransactionId: "o-1") == expected)
            try await repository.recordHistorySync(originalTransactionId: "o-1", revision: nil, complete: false, at: 1_100)
            #expect(try await repository.customer(originalTransactionId: "o-1") == expected)
            try await repository.recordHistorySync(originalTransactionId: "o-3", revision: "rev-1", complete: true, at: 2_000)
            #expect(try await repository.customer(originalTransactionId: "o-3")?.historyRevision == "rev-1")
            #expect(try await repository.customer(originalTransactionId: "o-3")?.historySyncedAt == 2_000)
            try await repository.recordHistorySync(originalTransactionId: "o-4", revision: nil, complete: true, at: 2_500)
            #expect(try await repository.customer(originalTransactionId: "o-4")?.historySyncedAt == 2_500)
            #expect(try await repository.customer(originalTransactionId: "o-4")?.historyRevision == nil)
            #expect(try await repository.customer(originalTransactionId: "missing") == nil)
        }
    }
    @Test("customer transactions: the chain, chains sharing the token or appTransactionId, and the token's transactions",
          arguments: TestBackend.selected)
    func customerTransactions(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            // o-1 (token T, app transaction A); o-2 shares T; o-3 shares A; o-4 is someone else.
            try await Self.link(CustomerLink(originalTransactionId: "o-1", appAccountToken: "T", appTransactionId: "A", seenAt: 1), in: repository)
            try await Self.link(CustomerLink(originalTransactionId: "o-2", appAccountToken: "T", seenAt: 2), in: repository)
            try await Self.link(CustomerLink(originalTransactionId: "o-3", appTransactionId: "A", seenAt: 3), in: repository)
            try await Self.link(CustomerLink(originalTransactionId: "o-4", appAccountToken: "U", appTransactionId: "B", seenAt: 4), in: repository)
            for (id, otid, purchased) in [("t1", "o-1", 10), ("t2", "o-1", 20), ("t3", "o-2", 15), ("t4", "o-3", 5), ("t5", "o-4", 1),
                                          ("t6", "o-9", 30)] {
                try await repository.recordTransaction(Fixture.transaction(id, otid: otid, signedDate: 100, purchaseDate: Int64(purchased)))
            }
            var tokened = Fixture.transaction("t7", otid: "o-8", signedDate: 100, purchaseDate: 25)
            tokened.appAccountToken = "T"
            try await repository.recordTransaction(tokened)
            let ids = try await repository.customerTransactions(originalTransactionId: "o-1").map(\.transactionId)
            #expect(ids == ["t4", "t1", "t3", "t2", "t7"])
            #expect(try await repository.customerTransactions(originalTransactionId: "o-4").map(\.transactionId) == ["t5"])
            // A chain without a customer record: its own transactions.
            #expect(try await repository.customerTransactions(originalTransactionId: "o-9").map(\.transactionId) == ["t6"])
            #expect(try await repository.customerTransactions(originalTransactionId: "none").isEmpty)
        }
    }
}

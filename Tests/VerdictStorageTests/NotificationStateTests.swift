import Testing
import VerdictTestSupport

@testable import VerdictStorage

/// `recordNotificationState`: the transaction, renewal info and customer link of one notification
/// in one step, with the same forward-only and never-erase rules as the single writes.
@Suite("Storage: notification state in one step")
struct NotificationStateTests {
    private static func renewal(_ signedDate: Int64, _ status: Int?) -> RenewalInfoRecord {
        NotificationStorageTests.renewalInfo(signedDate, status)
    }

    @Test("all three parts, then older and equal versions: forward-only, links fill in, revision reported",
          arguments: TestBackend.selected)
    func forwardOnlyInOneStep(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ in
            let first = NotificationState(
                transaction: Fixture.transaction("t-1", signedDate: 200, purchaseDate: 50),
                renewalInfo: Self.renewal(200, 1),
                customer: CustomerLink(originalTransactionId: "otid-1", appAccountToken: "acct", seenAt: 500))
            #expect(try await repository.recordNotificationState(first)
                    == NotificationStateOutcome(transactionRecorded: true, renewalInfoRecorded: true, historyRevision: nil))

            let older = NotificationState(
                transaction: Fixture.transaction("t-1", signedDate: 100, product: "old"),
                renewalInfo: Self.renewal(200, 0),
                customer: CustomerLink(originalTransactionId: "otid-1", appTransactionId: "app-1", seenAt: 300))
            #expect(try await repository.recordNotificationState(older)
                    == NotificationStateOutcome(transactionRecorded: false, renewalInfoRecorded: false, historyRevision: nil))
            #expect(try await repository.transaction(id: "t-1") == Fixture.transaction("t-1", signedDate: 200, purchaseDate: 50))
            #expect(try await repository.renewalInfo(originalTransactionId: "otid-1") == Self.renewal(200, 1))
            let customer = try await repository.customer(originalTransactionId: "otid-1")
            #expect(customer?.appAccountToken == "acct" && customer?.appTransactionId == "app-1" && customer?.firstSeenAt == 300)

            try await repository.recordHistorySync(originalTransactionId: "otid-1", revision: "rev-3", complete: true, at: 900)
            let newer = NotificationState(
                transaction: Fixture.transaction("t-2", signedDate: 400),
                customer: CustomerLink(originalTransactionId: "otid-1", seenAt: 950))
            #expect(try await repository.recordNotificationState(newer)
                    == NotificationStateOutcome(transactionRecorded: true, renewalInfoRecorded: nil, historyRevision: "rev-3"))
            #expect(try await repository.customer(originalTransactionId: "otid-1")?.appAccountToken == "acct")
            #expect(try await repository.transactions(originalTransactionId: "otid-1").map(\.transactionId) == ["t-1", "t-2"])
        }
    }

    @Test("missing parts write nothing and report nil", arguments: TestBackend.selected)
    func missingParts(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ throws in
            #expect(try await repository.recordNotificationState(NotificationState()) == NotificationStateOutcome())
            let renewalOnly = NotificationState(renewalInfo: Self.renewal(10, nil))
            #expect(try await repository.recordNotificationState(renewalOnly)
                    == NotificationStateOutcome(transactionRecorded: nil, renewalInfoRecorded: true, historyRevision: nil))
            #expect(try await repository.customer(originalTransactionId: "otid-1") == nil)
            #expect(try await repository.transactions(originalTransactionId: "otid-1").isEmpty)
        }
    }
}

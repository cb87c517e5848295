import Foundation
import HTTPTypes
import Testing
@testable import VerdictService
import VerdictStorage

/// A refund request about a group member's `ASSIGNED` transaction shows as not applicable, not as
/// a veto, on the Refund requests page and on its own page; a veto of the same name still shows
/// as a veto when a rule is recorded beside it.
@Suite struct ConsoleMemberRefundTests {
    static func request(_ id: String, ruleId: String?, blockedBy: String) -> ConsumptionRequestRecord {
        ConsumptionRequestRecord(
            id: id, notificationUUID: UUID().uuidString.lowercased(), transactionId: "9100000000000001",
            originalTransactionId: "9100000000000001", appAccountToken: nil, environment: "Sandbox", reason: "LEGAL",
            requestedAt: 1_795_000_000_000, deadline: 1_795_043_200_000, decidedAt: 1_795_000_001_000, bundleHash: "sha256:abc",
            ruleId: ruleId, ruleLine: nil, blockedBy: blockedBy, consentBasis: .assumed, state: .notSent, body: nil,
            json: #"{"explanation":"…","notSentReason":"\#(RefundDecider.assignedTransactionReason)","facts":{}}"#)
    }

    @Test func aMembersRequestShowsAsNotApplicable() async throws {
        try await RouterHarness.with(extraSettings: ["VERDICT_API_TOKENS": ConsoleTests.tokens]) { harness in
            let member = Self.request("2b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3e01", ruleId: nil, blockedBy: RefundDecider.assignedTransactionGuard)
            try await harness.service.apps.first.repository.importConsumptionRequests([member])
            let session = try #require(ConsoleTests.cookie("verdict_session", in: try await ConsoleTests.signIn(harness, token: ConsoleTests.viewer)))
            let cookie: HTTPFields = [.cookie: "verdict_session=\(session.value)"]

            let list = String(decoding: try await harness.send(.get, "/console/refunds", token: nil, headers: cookie).body, as: UTF8.self)
            #expect(list.contains("<td>not applicable: a group member&#39;s transaction (ASSIGNED)</td>")
                    || list.contains("<td>not applicable: a group member&#x27;s transaction (ASSIGNED)</td>"))
            #expect(list.contains("not sent: the purchase is a group member"))
            #expect(!list.contains("vetoed by assigned-transaction"))

            let page = String(decoding: try await harness.send(
                .get, "/console/decisions/refunds/\(member.id)", token: nil, headers: cookie).body, as: UTF8.self)
            #expect(page.contains("not applicable: a group member"))
            #expect(!page.contains("vetoed by"))
        }
    }

    /// A member's transaction the purchaser took away shows on the customer's timeline as such,
    /// not as refunded.
    @Test func aRevokedAssignmentIsNotShownAsARefund() async throws {
        try await RouterHarness.with(extraSettings: ["VERDICT_API_TOKENS": ConsoleTests.tokens]) { harness in
            let id = "9100000000000001"
            func transaction(_ id: String, revocationType: String) -> TransactionRecord {
                TransactionRecord(
                    transactionId: id, originalTransactionId: id, productId: "com.lumen.pro.annual", appAccountToken: nil,
                    environment: "Sandbox", purchaseDate: 1_794_000_000_000, revocationDate: 1_795_000_000_000,
                    signedDate: 1_795_000_000_000, decodedJSON: """
                        {"transactionId":"\(id)","originalTransactionId":"\(id)","productId":"com.lumen.pro.annual",\
                        "inAppOwnershipType":"ASSIGNED","revocationType":"\(revocationType)","revocationDate":1795000000000,\
                        "purchaseDate":1794000000000,"signedDate":1795000000000,"environment":"Sandbox"}
                        """)
            }
            _ = try await harness.service.apps.first.repository.recordNotificationState(NotificationState(
                transaction: transaction(id, revocationType: "ASSIGNMENT_REVOKE"),
                customer: CustomerLink(originalTransactionId: id, seenAt: 1_795_000_000_000)))
            let session = try #require(ConsoleTests.cookie("verdict_session", in: try await ConsoleTests.signIn(harness, token: ConsoleTests.viewer)))
            let cookie: HTTPFields = [.cookie: "verdict_session=\(session.value)"]
            let page = String(decoding: try await harness.send(.get, "/console/customer?q=\(id)", token: nil, headers: cookie).body, as: UTF8.self)
            #expect(page.contains("assignment revoked"))
            #expect(!page.contains("refunded"))
        }
    }

    @Test func theRuleColumnSaysWhatDecided() {
        let member = Self.request("a", ruleId: nil, blockedBy: RefundDecider.assignedTransactionGuard)
        #expect(ConsoleRefundsView.decidedBy(member) == "not applicable: a group member's transaction (ASSIGNED)")
        #expect(ConsoleRefundsView.decidedBy(Self.request("b", ruleId: "legal", blockedBy: "assigned-transaction"))
                == "vetoed by assigned-transaction")
        #expect(ConsoleRefundsView.decidedBy(Self.request("c", ruleId: nil, blockedBy: "no-consent")) == "vetoed by no-consent")
    }
}

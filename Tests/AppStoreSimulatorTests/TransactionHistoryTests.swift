import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

/// Get Transaction History (v2) paging and filters, through the real client.
@Suite struct TransactionHistoryTests {
    /// One customer with a subscription and `consumables` consumable purchases.
    static func customerWithPurchases(_ harness: SimulatorHarness, consumables: Int) async throws -> (customer: String, ids: [String]) {
        let subscription = try await harness.store.subscribe(SubscribeRequest(productId: "com.example.monthly"))
        let customer = try #require(subscription.transaction?.appTransactionId)
        var ids = [try #require(subscription.transactionId)]
        for index in 0..<consumables {
            harness.store.clock.advance(by: 60)
            let result = try await harness.store.purchase(OneTimePurchaseRequest(
                productId: "com.example.coins", price: Int64(100 + index), appTransactionId: customer))
            ids.append(try #require(result.transactionId))
        }
        return (customer, ids)
    }

    static func transactionIds(_ page: HistoryResponse) throws -> [String] {
        try (page.signedTransactions ?? []).map { signed in
            let jws = try #require(CompactJWS(signed))
            return try #require(try AppStoreJSON.decoder().decode(JWSTransactionDecodedPayload.self, from: jws.payload).transactionId)
        }
    }

    @Test func pagingWithRevisionReturnsEveryTransactionOnce() async throws {
        try await withSimulator { harness in
            let (_, ids) = try await Self.customerWithPurchases(harness, consumables: 44)
            var revision: String?
            var seen: [String] = []
            var pages = 0
            while true {
                let page = try await harness.client.getTransactionHistory(transactionId: ids[3], revision: revision)
                pages += 1
                let pageIds = try Self.transactionIds(page)
                #expect(pageIds.count <= 20)
                seen += pageIds
                #expect(page.revision != nil)
                #expect(page.bundleId == "com.example.verdict")
                #expect(page.environment == .sandbox)
                guard page.hasMore == true else { break }
                revision = page.revision
                try #require(pages < 10)
            }
            #expect(pages == 3)
            #expect(seen.count == ids.count)
            #expect(Set(seen).count == seen.count)
            #expect(Set(seen) == Set(ids))
            #expect(seen == ids)
        }
    }

    @Test func descendingSortReversesTheOrder() async throws {
        try await withSimulator { harness in
            let (customer, ids) = try await Self.customerWithPurchases(harness, consumables: 24)
            let pages = try await harness.client.getAllTransactionHistory(
                transactionId: customer, request: TransactionHistoryRequest(sort: .descending))
            let seen = try pages.flatMap(Self.transactionIds)
            #expect(seen == ids.reversed())
            #expect(pages.last?.hasMore == false)
        }
    }

    @Test func productTypeFilterKeepsOnlyThatType() async throws {
        try await withSimulator { harness in
            let (_, ids) = try await Self.customerWithPurchases(harness, consumables: 3)
            let page = try await harness.client.getTransactionHistory(
                transactionId: ids[0], request: TransactionHistoryRequest(productTypes: [.autoRenewable]))
            #expect(try Self.transactionIds(page) == [ids[0]])
        }
    }

    @Test func revokedFilterFollowsRefunds() async throws {
        try await withSimulator { harness in
            let (_, ids) = try await Self.customerWithPurchases(harness, consumables: 3)
            _ = try await harness.store.grantRefund(transactionId: ids[2])
            let revoked = try await harness.client.getTransactionHistory(
                transactionId: ids[0], request: TransactionHistoryRequest(revoked: true))
            #expect(try Self.transactionIds(revoked) == [ids[2]])
            let refunds = try await harness.client.getRefundHistory(transactionId: ids[1])
            #expect(refunds.signedTransactions?.count == 1)
            #expect(refunds.hasMore == false)
        }
    }

    @Test func unknownTransactionIsNotFound() async throws {
        try await withSimulator { harness in
            let failure = await apiFailure { _ = try await harness.client.getTransactionHistory(transactionId: "2999999999999999") }
            #expect(failure?.httpStatus == 404)
            #expect(failure?.apiError == .transactionIdNotFound)
        }
    }

    @Test func garbledRevisionIsRejected() async throws {
        try await withSimulator { harness in
            let id = try await harness.buyConsumable()
            let failure = await apiFailure {
                _ = try await harness.client.getTransactionHistory(transactionId: id, revision: "not-a-revision")
            }
            #expect(failure?.rawErrorCode == 4_000_005)
        }
    }
}

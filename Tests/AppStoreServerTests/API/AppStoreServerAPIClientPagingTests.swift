import AppStoreServer
import Foundation
import Testing

/// Following `hasMore`: same query / body, new revision / pagination token.
@Suite("API: paging")
struct AppStoreServerAPIClientPagingTests {
    static func historyPage(revision: String?, hasMore: Bool, transaction: String) -> RecordingTransport.Reply {
        let revisionField = revision.map { #""revision":"\#($0)","# } ?? ""
        return APIClientFixtures.response(
            #"{\#(revisionField)"hasMore":\#(hasMore),"bundleId":"com.example","appAppleId":1234,"environment":"Production","signedTransactions":["\#(transaction)"]}"#
        )
    }

    static let filters = TransactionHistoryRequest(productTypes: [.autoRenewable], sort: .descending, revoked: false)

    @Test func transactionHistoryFollowsHasMoreWithSameQueryAndNewRevision() async throws {
        let transport = RecordingTransport([
            Self.historyPage(revision: "r1", hasMore: true, transaction: "t1"),
            Self.historyPage(revision: "r2", hasMore: true, transaction: "t2"),
            Self.historyPage(revision: "r3", hasMore: false, transaction: "t3"),
        ])
        let pages = try await APIClientFixtures.client(transport).getAllTransactionHistory(transactionId: "1000", request: Self.filters)
        #expect(pages.flatMap { $0.signedTransactions ?? [] } == ["t1", "t2", "t3"])
        let base = "https://api.storekit.apple.com/inApps/v2/history/1000?"
        let filters = "productType=AUTO_RENEWABLE&sort=DESCENDING&revoked=false"
        #expect(transport.requests.map(\.url.absoluteString) == [
            base + filters,
            base + "revision=r1&" + filters,
            base + "revision=r2&" + filters,
        ])
    }

    @Test func transactionHistoryStopsOnFirstPageWithoutHasMore() async throws {
        let transport = RecordingTransport([Self.historyPage(revision: "r1", hasMore: false, transaction: "t1")])
        let pages = try await APIClientFixtures.client(transport).getAllTransactionHistory(transactionId: "1000")
        #expect(pages.count == 1)
        #expect(transport.requests.count == 1)
    }

    @Test func hasMoreWithoutRevisionIsInvalidResponse() async throws {
        let transport = RecordingTransport([Self.historyPage(revision: nil, hasMore: true, transaction: "t1")])
        let failure = await #expect(throws: AppStoreAPIFailure.self) {
            _ = try await APIClientFixtures.client(transport).getAllTransactionHistory(transactionId: "1000")
        }
        #expect(failure?.kind == .invalidResponse)
        #expect(transport.requests.count == 1)
    }

    @Test func revisionThatDoesNotAdvanceIsInvalidResponse() async throws {
        let transport = RecordingTransport([Self.historyPage(revision: "same", hasMore: true, transaction: "t")])
        let failure = await #expect(throws: AppStoreAPIFailure.self) {
            _ = try await APIClientFixtures.client(transport).getAllTransactionHistory(transactionId: "1000")
        }
        #expect(failure?.kind == .invalidResponse)
        #expect(transport.requests.count == 2)
    }

    @Test func pageLimitStopsEndlessPaging() async throws {
        let transport = RecordingTransport((1...5).map { Self.historyPage(revision: "r\($0)", hasMore: true, transaction: "t\($0)") })
        let failure = await #expect(throws: AppStoreAPIFailure.self) {
            _ = try await APIClientFixtures.client(transport).getAllTransactionHistory(transactionId: "1000", maxPages: 3)
        }
        #expect(failure?.kind == .invalidResponse)
        #expect(transport.requests.count == 3)
    }

    @Test func errorOnALaterPagePropagates() async throws {
        let transport = RecordingTransport([
            Self.historyPage(revision: "r1", hasMore: true, transaction: "t1"),
            APIClientFixtures.response(#"{"errorCode":4290000,"errorMessage":"Rate limit exceeded."}"#, status: 429),
        ])
        let failure = await #expect(throws: AppStoreAPIFailure.self) {
            _ = try await APIClientFixtures.client(transport).getAllTransactionHistory(transactionId: "1000")
        }
        #expect(failure?.apiError == .rateLimitExceeded)
    }

    @Test func notificationHistoryFollowsPaginationTokenWithSameBody() async throws {
        let transport = RecordingTransport([
            APIClientFixtures.response(#"{"paginationToken":"p1","hasMore":true,"notificationHistory":[{"signedPayload":"n1"}]}"#),
            APIClientFixtures.response(#"{"paginationToken":"p2","hasMore":false,"notificationHistory":[{"signedPayload":"n2"}]}"#),
        ])
        let body = NotificationHistoryRequest(
            startDate: Date(appStoreMilliseconds: 1_698_148_900_000), endDate: Date(appStoreMilliseconds: 1_698_148_950_000),
            onlyFailures: true
        )
        let pages = try await APIClientFixtures.client(transport).getAllNotificationHistory(request: body)
        #expect(pages.flatMap { $0.notificationHistory ?? [] }.map(\.signedPayload) == ["n1", "n2"])
        #expect(transport.requests.map(\.url.absoluteString) == [
            "https://api.storekit.apple.com/inApps/v1/notifications/history",
            "https://api.storekit.apple.com/inApps/v1/notifications/history?paginationToken=p1",
        ])
        let bodies = transport.requests.map { String(decoding: $0.body ?? Data(), as: UTF8.self) }
        #expect(bodies[0] == #"{"endDate":1698148950000,"onlyFailures":true,"startDate":1698148900000}"#)
        #expect(bodies[1] == bodies[0])
    }
}

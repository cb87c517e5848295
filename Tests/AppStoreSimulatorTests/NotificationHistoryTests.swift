import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

/// Get Notification History: filters, paging, `onlyFailures`, request validation; test notifications.
@Suite struct NotificationHistoryTests {
    static func request(_ harness: SimulatorHarness, onlyFailures: Bool? = nil, transactionId: String? = nil,
                        type: NotificationTypeV2? = nil) -> NotificationHistoryRequest {
        NotificationHistoryRequest(
            startDate: harness.store.now.addingTimeInterval(-86400), endDate: harness.store.now.addingTimeInterval(60),
            notificationType: type, transactionId: transactionId, onlyFailures: onlyFailures)
    }

    static func uuids(_ pages: [NotificationHistoryResponse]) throws -> [String] {
        try pages.flatMap { $0.notificationHistory ?? [] }.map { item in
            let signed = try #require(item.signedPayload)
            let jws = try #require(CompactJWS(signed))
            return try #require(try AppStoreJSON.decoder().decode(ResponseBodyV2DecodedPayload.self, from: jws.payload).notificationUUID)
        }
    }

    @Test func onlyFailuresReturnsUndeliveredIncludingOnesStillRetrying() async throws {
        let receiver = NotificationReceiver(statuses: [200, 500, 200])
        let url = try await receiver.start()
        defer { Task { await receiver.stop() } }
        // Production retries; an hour lasts 10 s, so the failed one is still being retried when queried.
        try await withSimulator(environment: .production, policy: DeliveryRetryPolicy(timeScale: 360)) { harness in
            await harness.server.deliverer.setDeliveryURL(url)
            let delivered = try await harness.store.purchase(OneTimePurchaseRequest(productId: "com.example.coins"))
            await harness.server.deliverer.waitUntilIdle()
            let failing = try await harness.store.purchase(OneTimePurchaseRequest(productId: "com.example.coins"))
            while await harness.store.notification(uuid: failing.notification.notificationUUID)?.sendAttempts.isEmpty != false {
                try await Task.sleep(for: .milliseconds(5))
            }
            let failures = try await harness.client.getAllNotificationHistory(request: Self.request(harness, onlyFailures: true))
            #expect(try Self.uuids(failures) == [failing.notification.notificationUUID])
            let item = try #require(failures.first?.notificationHistory?.first)
            #expect(item.sendAttempts?.map(\.sendAttemptResult) == [.unsuccessfulHttpResponseCode])
            #expect(await harness.store.notification(uuid: failing.notification.notificationUUID)?.isRetryPending == true)

            let all = try await harness.client.getAllNotificationHistory(request: Self.request(harness))
            #expect(try Self.uuids(all) == [delivered.notification.notificationUUID, failing.notification.notificationUUID])
        }
    }

    @Test func pagesOfTwentyWithPaginationToken() async throws {
        try await withSimulator { harness in
            var expected: [String] = []
            for _ in 0..<23 {
                expected.append(try await harness.store.purchase(OneTimePurchaseRequest(productId: "com.example.coins"))
                    .notification.notificationUUID)
            }
            let first = try await harness.client.getNotificationHistory(request: Self.request(harness))
            #expect(first.notificationHistory?.count == 20)
            #expect(first.hasMore == true)
            let pages = try await harness.client.getAllNotificationHistory(request: Self.request(harness))
            #expect(pages.count == 2)
            #expect(try Self.uuids(pages) == expected)
        }
    }

    @Test func transactionIdFilterSelectsTheCustomer() async throws {
        try await withSimulator { harness in
            let subscription = try await harness.store.subscribe(SubscribeRequest(productId: "com.example.monthly"))
            let original = try #require(subscription.originalTransactionId)
            _ = try await harness.store.purchase(OneTimePurchaseRequest(productId: "com.example.coins"))
            let renewal = try await harness.store.renew(originalTransactionId: original)
            let pages = try await harness.client.getAllNotificationHistory(
                request: Self.request(harness, transactionId: try #require(renewal.transactionId)))
            #expect(try Self.uuids(pages) == [subscription.notification.notificationUUID, renewal.notification.notificationUUID])
        }
    }

    /// A request that breaks one rule and the code Apple answers with.
    struct Invalid: Sendable, CustomTestStringConvertible {
        let name: String
        let startOffset: TimeInterval
        let endOffset: TimeInterval
        let bothFilters: Bool
        let errorCode: Int64
        var testDescription: String { name }
    }

    static let invalid: [Invalid] = [
        Invalid(name: "start more than 180 days ago", startOffset: -181 * 86400, endOffset: 0, bothFilters: false, errorCode: 4_000_012),
        Invalid(name: "end before start", startOffset: -3600, endOffset: -7200, bothFilters: false, errorCode: 4_000_013),
        Invalid(name: "end equals start", startOffset: -3600, endOffset: -3600, bothFilters: false, errorCode: 4_000_013),
        Invalid(name: "transactionId and notificationType", startOffset: -3600, endOffset: 0, bothFilters: true, errorCode: 4_000_019),
    ]

    @Test(arguments: invalid)
    func invalidRequestIsRejected(_ invalid: Invalid) async throws {
        try await withSimulator { harness in
            let id = try await harness.buyConsumable()
            let now = harness.store.now
            let request = NotificationHistoryRequest(
                startDate: now.addingTimeInterval(invalid.startOffset), endDate: now.addingTimeInterval(invalid.endOffset),
                notificationType: invalid.bothFilters ? .oneTimeCharge : nil,
                transactionId: invalid.bothFilters ? id : nil)
            let failure = await apiFailure { _ = try await harness.client.getNotificationHistory(request: request) }
            #expect(failure?.httpStatus == 400)
            #expect(failure?.rawErrorCode == invalid.errorCode)
        }
    }

    @Test func testNotificationIsDeliveredAndReported() async throws {
        let receiver = NotificationReceiver(statuses: [])
        let url = try await receiver.start()
        defer { Task { await receiver.stop() } }
        try await withSimulator { harness in
            await harness.server.deliverer.setDeliveryURL(url)
            let token = try #require(try await harness.client.requestTestNotification().testNotificationToken)
            await harness.server.deliverer.waitUntilIdle()
            let status = try await harness.client.getTestNotificationStatus(testNotificationToken: token)
            #expect(status.sendAttempts?.map(\.sendAttemptResult) == [.success])
            let signed = try #require(status.signedPayload)
            let jws = try #require(CompactJWS(signed))
            let payload = try AppStoreJSON.decoder().decode(ResponseBodyV2DecodedPayload.self, from: jws.payload)
            #expect(payload.notificationType == .test)
            #expect(receiver.received.count == 1)
        }
    }

    @Test func testNotificationWithoutURLIs4040007() async throws {
        try await withSimulator { harness in
            let failure = await apiFailure { _ = try await harness.client.requestTestNotification() }
            #expect(failure?.rawErrorCode == 4_040_007)
            let unknown = await apiFailure { _ = try await harness.client.getTestNotificationStatus(testNotificationToken: "nope") }
            #expect(unknown?.rawErrorCode == 4_040_008)
        }
    }
}

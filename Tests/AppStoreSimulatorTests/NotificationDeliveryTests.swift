import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

/// Delivery of signed notifications to a receiver, with Apple's retry schedule (compressed).
@Suite struct NotificationDeliveryTests {
    /// An hour of the retry schedule lasts a millisecond.
    static let fast = DeliveryRetryPolicy(timeScale: 3_600_000)

    @Test func productionRetriesAfterAFailedAttemptOnAppleSchedule() async throws {
        let receiver = NotificationReceiver(statuses: [500, 404])
        let url = try await receiver.start()
        defer { Task { await receiver.stop() } }
        try await withSimulator(environment: .production, policy: Self.fast) { harness in
            await harness.server.deliverer.setDeliveryURL(url)
            let result = try await harness.store.subscribe(SubscribeRequest(productId: "com.example.monthly"))
            await harness.server.deliverer.waitUntilIdle()
            let logged = try #require(await harness.store.notification(uuid: result.notification.notificationUUID))
            #expect(logged.sendAttempts.map(\.sendAttemptResult) == [
                .unsuccessfulHttpResponseCode, .unsuccessfulHttpResponseCode, .success,
            ])
            #expect(logged.sendAttempts.map(\.httpStatus) == [500, 404, 200])
            let first = logged.sendAttempts[0].attemptDate
            #expect(logged.sendAttempts[1].attemptDate == first.addingTimeInterval(3600))
            #expect(logged.sendAttempts[2].attemptDate == first.addingTimeInterval(13 * 3600))
            #expect(logged.isRetryPending == false)
            #expect(logged.wasDelivered)

            let received = receiver.received
            #expect(received.count == 3)
            #expect(received.allSatisfy { $0.contentType == "application/json" })
            let bodies = try received.map { try JSONDecoder().decode(ResponseBodyV2.self, from: $0.body) }
            #expect(bodies.allSatisfy { $0.signedPayload == result.notification.signedPayload })
        }
    }

    @Test func productionGivesUpAfterFiveRetries() async throws {
        let receiver = NotificationReceiver(statuses: Array(repeating: 503, count: 10))
        let url = try await receiver.start()
        defer { Task { await receiver.stop() } }
        try await withSimulator(environment: .production, policy: Self.fast) { harness in
            await harness.server.deliverer.setDeliveryURL(url)
            let result = try await harness.store.purchase(OneTimePurchaseRequest(productId: "com.example.coins"))
            await harness.server.deliverer.waitUntilIdle()
            let logged = try #require(await harness.store.notification(uuid: result.notification.notificationUUID))
            #expect(logged.sendAttempts.count == 6)
            let offsets = logged.sendAttempts.map { $0.attemptDate.timeIntervalSince(logged.sendAttempts[0].attemptDate) / 3600 }
            #expect(offsets == [0, 1, 13, 37, 85, 157])
            #expect(!logged.wasDelivered)
            #expect(receiver.received.count == 6)
        }
    }

    @Test func sandboxSendsOnce() async throws {
        let receiver = NotificationReceiver(statuses: [500])
        let url = try await receiver.start()
        defer { Task { await receiver.stop() } }
        try await withSimulator(environment: .sandbox, policy: Self.fast) { harness in
            await harness.server.deliverer.setDeliveryURL(url)
            let result = try await harness.store.purchase(OneTimePurchaseRequest(productId: "com.example.coins"))
            await harness.server.deliverer.waitUntilIdle()
            let logged = try #require(await harness.store.notification(uuid: result.notification.notificationUUID))
            #expect(logged.sendAttempts.map(\.sendAttemptResult) == [.unsuccessfulHttpResponseCode])
            #expect(receiver.received.count == 1)
        }
    }

    @Test func sandboxRetriesWhenTheOverrideSaysSo() async throws {
        let receiver = NotificationReceiver(statuses: [500])
        let url = try await receiver.start()
        defer { Task { await receiver.stop() } }
        var policy = Self.fast
        policy.mode = .always
        try await withSimulator(environment: .sandbox, policy: policy) { harness in
            await harness.server.deliverer.setDeliveryURL(url)
            let result = try await harness.store.purchase(OneTimePurchaseRequest(productId: "com.example.coins"))
            await harness.server.deliverer.waitUntilIdle()
            let logged = try #require(await harness.store.notification(uuid: result.notification.notificationUUID))
            #expect(logged.sendAttempts.map(\.sendAttemptResult) == [.unsuccessfulHttpResponseCode, .success])
        }
    }

    @Test func unreachableReceiverIsNoResponse() async throws {
        let receiver = NotificationReceiver(statuses: [])
        let url = try await receiver.start()
        await receiver.stop()
        var policy = Self.fast
        policy.requestTimeout = 1
        try await withSimulator(environment: .sandbox, policy: policy) { harness in
            await harness.server.deliverer.setDeliveryURL(url)
            let result = try await harness.store.purchase(OneTimePurchaseRequest(productId: "com.example.coins"))
            await harness.server.deliverer.waitUntilIdle()
            let logged = try #require(await harness.store.notification(uuid: result.notification.notificationUUID))
            #expect(logged.sendAttempts.map(\.sendAttemptResult) == [.noResponse])
        }
    }
}

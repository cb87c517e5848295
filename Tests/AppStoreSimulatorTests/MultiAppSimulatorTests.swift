import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

/// One simulator serving two apps: each app's App Store Server API answers only to its own key and
/// bundle id, sees only its own subscribers, and its notifications are signed for it and
/// delivered to its own URL.
@Suite struct MultiAppSimulatorTests {
    /// A valid token for `bundleId` signed with `key` (whatever app the key was issued for).
    static func token(_ key: IssuedInAppPurchaseKey, bundleId: String, at now: Date) throws -> String {
        let seconds = Int64(now.timeIntervalSince1970)
        return try AuthenticationTests.TokenParts(
            header: ["alg": "ES256", "kid": key.keyId, "typ": "JWT"],
            claims: ["iss": key.issuerId, "iat": seconds, "exp": seconds + 300, "aud": "appstoreconnect-v1",
                     "bid": bundleId]
        ).sign(with: key)
    }

    @Test func eachAppIsAnsweredWithItsOwnKeyAndBundleIdOnly() async throws {
        try await withTwoApps { apps in
            let idA = try await apps.a.buyConsumable()
            let idB = try await apps.b.buyConsumable()
            // Ids are unique across the apps, as at Apple: the second app draws from its own block.
            #expect(idA.hasPrefix("2000"))
            #expect(idB.hasPrefix("2001"))
            for (harness, id) in [(apps.a, idA), (apps.b, idB)] {
                let signed = try #require(try await harness.client.getTransactionInfo(transactionId: id).signedTransactionInfo)
                let payload = try await apps.verifier(for: harness).verifyTransaction(signed)
                #expect(payload.transactionId == id)
                #expect(payload.bundleId == harness.store.configuration.bundleId)
            }

            let now = apps.a.store.now
            let keyA = apps.a.store.issuedKey, keyB = apps.b.store.issuedKey
            let refused: [(key: IssuedInAppPurchaseKey, bundleId: String, id: String)] = [
                (keyA, "com.example.beta", idB),  // app A's key is not valid for app B
                (keyB, "com.example.alpha", idA),  // nor B's for A
                (keyA, "com.example.gamma", idA),  // an app the simulator does not serve
            ]
            for attempt in refused {
                let token = try Self.token(attempt.key, bundleId: attempt.bundleId, at: now)
                let response = try await apps.a.raw("GET", "/inApps/v1/transactions/\(attempt.id)", bearer: token)
                #expect(response.status == 401, "\(attempt.bundleId)")
                #expect(response.body.isEmpty)
            }
            // The same forged form with the matching key is accepted, so the refusals above are the key's.
            let own = try Self.token(keyB, bundleId: "com.example.beta", at: now)
            #expect(try await apps.b.raw("GET", "/inApps/v1/transactions/\(idB)", bearer: own).status == 200)
        }
    }

    @Test func anAppsSubscribersAreInvisibleThroughAnotherAppsToken() async throws {
        try await withTwoApps { apps in
            let subscribed = try await apps.a.store.subscribe(SubscribeRequest(productId: "com.example.monthly"))
            let originalId = try #require(subscribed.transaction?.originalTransactionId)
            let statuses = try await apps.a.client.getAllSubscriptionStatuses(transactionId: originalId)
            #expect(statuses.bundleId == "com.example.alpha")
            #expect(statuses.data?.count == 1)

            let statusFailure = await apiFailure { _ = try await apps.b.client.getAllSubscriptionStatuses(transactionId: originalId) }
            #expect(statusFailure?.httpStatus == 404)
            #expect(statusFailure?.rawErrorCode == 4_040_010)
            let infoFailure = await apiFailure { _ = try await apps.b.client.getTransactionInfo(transactionId: originalId) }
            #expect(infoFailure?.rawErrorCode == 4_040_010)
            #expect(await apps.b.store.allCustomers().isEmpty)
            #expect(await apps.b.store.notificationLog().isEmpty)
        }
    }

    @Test func scenariosOfTheSecondAppDeliverNotificationsSignedForItToItsOwnURL() async throws {
        let receiverA = NotificationReceiver(statuses: [])
        let receiverB = NotificationReceiver(statuses: [])
        let urlA = try await receiverA.start()
        let urlB = try await receiverB.start()
        defer { Task { await receiverA.stop(); await receiverB.stop() } }
        try await withTwoApps { apps in
            // A's URL through the Swift API, B's through the control route naming B.
            let appA = try #require(apps.server.app(bundleId: "com.example.alpha"))
            await appA.deliverer.setDeliveryURL(urlA)
            let put = try await apps.a.raw("PUT", "/simulator/delivery?bundleId=com.example.beta",
                                           body: Data(#"{"url":"\#(urlB.absoluteString)"}"#.utf8), bearer: nil)
            #expect(put.status == 200)
            #expect(await apps.b.server.app(bundleId: "com.example.beta")?.deliverer.deliveryURL == urlB)
            #expect(await apps.server.deliverer.deliveryURL == urlA)

            let response = try await apps.a.raw(
                "POST", "/simulator/scenarios/subscribe?bundleId=com.example.beta",
                body: Data(#"{"productId":"com.example.beta.monthly"}"#.utf8), bearer: nil)
            #expect(response.status == 200)
            let result = try AppStoreJSON.decoder().decode(ScenarioResult.self, from: response.body)
            for app in apps.server.apps { await app.deliverer.waitUntilIdle() }

            #expect(receiverA.received.isEmpty)
            let delivered = try #require(receiverB.received.first)
            #expect(receiverB.received.count == 1)
            let signedPayload = try #require(try JSONDecoder().decode(ResponseBodyV2.self, from: delivered.body).signedPayload)
            #expect(signedPayload == result.notification.signedPayload)

            let verified = try await apps.verifier(for: apps.b).verifyNotification(signedPayload)
            #expect(verified.payload.data?.bundleId == "com.example.beta")
            #expect(verified.payload.data?.appAppleId == 2_222_222_222)
            #expect(verified.transaction?.bundleId == "com.example.beta")
            await #expect(throws: VerificationError.self) {
                _ = try await apps.verifier(for: apps.a).verifyNotification(signedPayload)
            }
            // B's bundle id with A's App Apple ID is refused too: the payload names B's App Apple ID.
            await #expect(throws: VerificationError.self) {
                _ = try await apps.verifier(bundleId: "com.example.beta", appAppleId: 1_111_111_111, environment: .production)
                    .verifyNotification(signedPayload)
            }
            #expect(await apps.a.store.notificationLog().isEmpty)
            #expect(await apps.b.store.notificationLog().map(\.notificationUUID) == [result.notification.notificationUUID])
        }
    }

    @Test func aTestNotificationNeedsTheAppsOwnURL() async throws {
        let receiver = NotificationReceiver(statuses: [])
        let url = try await receiver.start()
        defer { Task { await receiver.stop() } }
        try await withTwoApps { apps in
            await apps.server.deliverer.setDeliveryURL(url)
            let failure = await apiFailure { _ = try await apps.b.client.requestTestNotification() }
            #expect(failure?.httpStatus == 404)
            #expect(failure?.rawErrorCode == 4_040_007)
            let sent = try await apps.a.client.requestTestNotification()
            #expect(sent.testNotificationToken != nil)
            await apps.server.deliverer.waitUntilIdle()
            #expect(receiver.received.count == 1)
        }
    }
}

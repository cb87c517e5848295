import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

/// The control API of a two-app simulator: routes act for the first app, or for the app the
/// `bundleId` query parameter names; realtime calls go to the named app's own realtime URL.
@Suite struct MultiAppControlTests {
    static func json(_ response: AppStoreHTTPResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: response.body) as? [String: Any])
    }

    @Test func appsAreListedAndTheFirstIsTheDefault() async throws {
        try await withTwoApps { apps in
            let listed = try #require(try JSONSerialization.jsonObject(
                with: try await apps.a.raw("GET", "/simulator/apps", bearer: nil).body) as? [[String: Any]])
            #expect(listed.map { $0["bundleId"] as? String } == ["com.example.alpha", "com.example.beta"])
            #expect(listed.map { $0["keyId"] as? String } == [apps.a.store.issuedKey.keyId, apps.b.store.issuedKey.keyId])
            #expect(listed.map { ($0["appAppleId"] as? NSNumber)?.int64Value } == [1_111_111_111, 2_222_222_222])

            let overview = try Self.json(try await apps.a.raw("GET", "/simulator", bearer: nil))
            #expect(overview["bundleId"] as? String == "com.example.alpha")
            #expect(overview["apps"] as? [String] == ["com.example.alpha", "com.example.beta"])
            let overviewB = try Self.json(try await apps.a.raw("GET", "/simulator?bundleId=com.example.beta", bearer: nil))
            #expect(overviewB["keyId"] as? String == apps.b.store.issuedKey.keyId)

            let key = try Self.json(try await apps.a.raw("GET", "/simulator/key?bundleId=com.example.beta", bearer: nil))
            #expect(key["keyId"] as? String == apps.b.store.issuedKey.keyId)
            #expect(key["bundleId"] as? String == "com.example.beta")
            #expect(key["privateKeyPEM"] as? String == apps.b.store.issuedKey.pemRepresentation)
            #expect(apps.a.store.issuedKey.keyId != apps.b.store.issuedKey.keyId)
        }
    }

    @Test func scenariosAndInspectionActForTheNamedApp() async throws {
        try await withTwoApps { apps in
            let body = Data(#"{"productId":"com.example.coins","type":"Consumable"}"#.utf8)
            #expect(try await apps.a.raw("POST", "/simulator/scenarios/purchase", body: body, bearer: nil).status == 200)
            let forB = try await apps.a.raw("POST", "/simulator/scenarios/purchase?bundleId=com.example.beta",
                                            body: body, bearer: nil)
            #expect(forB.status == 200)
            let idB = try #require(try AppStoreJSON.decoder().decode(ScenarioResult.self, from: forB.body).transactionId)

            #expect(await apps.a.store.allCustomers().count == 1)
            #expect(await apps.b.store.allCustomers().count == 1)
            #expect(await apps.b.store.transaction(id: idB)?.bundleId == "com.example.beta")
            #expect(await apps.a.store.transaction(id: idB) == nil)
            let transaction = try await apps.a.raw("GET", "/simulator/transactions/\(idB)?bundleId=com.example.beta", bearer: nil)
            #expect(transaction.status == 200)
            #expect(try await apps.a.raw("GET", "/simulator/transactions/\(idB)", bearer: nil).status == 404)

            let refundRequestB = try await apps.a.raw(
                "POST", "/simulator/scenarios/refund-request?bundleId=com.example.beta",
                body: Data(#"{"transactionId":"\#(idB)"}"#.utf8), bearer: nil)
            #expect(refundRequestB.status == 200)
            #expect(await apps.b.store.notificationLog().count == 2)
            #expect(await apps.a.store.notificationLog().count == 1)
        }
    }

    @Test func anUnknownAppIs404() async throws {
        try await withTwoApps { apps in
            for (method, path) in [("GET", "/simulator/customers"), ("GET", "/simulator/delivery"),
                                   ("POST", "/simulator/scenarios/test-notification")] {
                let response = try await apps.a.raw(method, path + "?bundleId=com.example.gamma", bearer: nil)
                #expect(response.status == 404, "\(path)")
                #expect((try Self.json(response)["error"] as? String)?.contains("com.example.gamma") == true)
            }
            #expect(await apps.a.store.notificationLog().isEmpty)
            #expect(await apps.b.store.notificationLog().isEmpty)
        }
    }

    @Test func aRealtimeCallGoesToTheAppsOwnURLWithItsAppAppleId() async throws {
        let receiver = NotificationReceiver(statuses: [])
        let url = try await receiver.start()
        defer { Task { await receiver.stop() } }
        try await withTwoApps(environment: .sandbox) { apps in
            try await apps.b.client.setRealtimeURL(url.absoluteString)
            let subscribedA = try await apps.a.store.subscribe(SubscribeRequest(productId: "com.example.monthly"))
            let subscribedB = try await apps.b.store.subscribe(SubscribeRequest(productId: "com.example.beta.monthly"))
            let idA = try #require(subscribedA.transaction?.originalTransactionId)
            let idB = try #require(subscribedB.transaction?.originalTransactionId)

            // A has no realtime URL of its own.
            let forA = try await apps.a.raw("POST", "/simulator/scenarios/view-subscription",
                                            body: Data(#"{"originalTransactionId":"\#(idA)"}"#.utf8), bearer: nil)
            #expect(forA.status == 409)
            #expect(receiver.received.isEmpty)

            let forB = try await apps.a.raw("POST", "/simulator/scenarios/view-subscription?bundleId=com.example.beta",
                                            body: Data(#"{"originalTransactionId":"\#(idB)"}"#.utf8), bearer: nil)
            #expect(forB.status == 200)
            let posted = try #require(receiver.received.first)
            let signed = try JSONDecoder().decode(RealtimeRequestBody.self, from: posted.body).signedPayload
            let request = try await apps.verifier(for: apps.b).verifyRealtimeRequest(signed)
            #expect(request.appAppleId == 2_222_222_222)
            #expect(request.originalTransactionId == idB)
            await #expect(throws: VerificationError.self) {
                _ = try await apps.verifier(for: apps.a).verifyRealtimeRequest(signed)
            }
        }
    }
}

import AppStoreServer
import AppStoreSimulator
import Foundation
import NIOHTTP1
import Testing
import VerdictService
import VerdictStorage
import VerdictTestSupport

/// Input nobody vouches for never ends the process: the remote crash of issue "no request may end
/// the process" (a year-10000 `signedDate` under a self-made chain) and its relatives answer a 4xx
/// JSON error with nothing stored; odd values under the trusted chain are stored and processed;
/// repeated JSON keys are refused on every endpoint that reads a body.
@Suite(.serialized) struct UntrustedInputTests {
    /// A notification payload for the harness's app, `signedDate` given as a JSON literal.
    static func notificationJSON(signedDate: String, type: String = "DID_RENEW", subtype: String? = nil,
                                 uuid: String = UUID().uuidString.lowercased(), data extra: String = "") -> Data {
        let subtype = subtype.map { #""subtype":"\#($0)","# } ?? ""
        return Data(#"""
            {"notificationType":"\#(type)",\#(subtype)"notificationUUID":"\#(uuid)","version":"2.0",\#
            "signedDate":\#(signedDate),"data":{"environment":"Sandbox","appAppleId":1234567890,\#
            "bundleId":"\#(ServiceHarness.bundleId)"\#(extra)}}
            """#.utf8)
    }

    static let hostileSignedDates = ["253402300800000", "18446744073709551616", "-1", "1e999", "\"1767225600000\""]

    static func errorCode(_ answer: (status: Int, body: Data)) -> String? {
        answer.body.jsonObject["error"]?.objectValue?["code"]?.stringValue
    }

    @Test func theRemoteCrashAndItsRelativesLeaveVerdictServeRunning() async throws {
        try await ServiceHarness.with(.sqlite, startService: false) { harness in
            try await ServiceProcess.group { children in
                let child = try await children.start(harness.environment, directory: harness.database.directory, name: "hostile")
                let attacker = try SimulatorPKI().signer()
                for literal in Self.hostileSignedDates + ["253402300799999", "1.5"] {
                    for signer in [attacker, harness.store.signer] {
                        let jws = try signer.sign(payloadJSON: Self.notificationJSON(signedDate: literal))
                        let answer = try await child.deliver(jws)
                        #expect(answer.status == 422, "\(literal): \(answer.status)")
                        #expect(["INVALID_PAYLOAD", "INVALID_CHAIN"].contains(Self.errorCode(answer) ?? ""), "\(literal)")
                    }
                }
                #expect(try await child.request(.GET, "/healthz", token: nil).status == 200)
                // The next real notification is served and processed.
                let real = try await harness.store.subscribe(SubscribeRequest(productId: "com.example.monthly"))
                #expect(try await child.deliver(real.notification.signedPayload).status == 200)
                let settled = try await child.waitUntilSettled([real.notification.notificationUUID])
                #expect(settled[real.notification.notificationUUID]?["state"]?.stringValue == "processed")
                #expect(try await harness.service.apps.first.repository.notificationCount() == 1)
                #expect(try await child.terminate() == 0)
            }
        }
    }

    @Test(arguments: TestBackend.selected)
    func hostileDatesAreRefusedAndNothingIsStored(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            let attacker = try SimulatorPKI().signer()
            for literal in Self.hostileSignedDates {
                for signer in [attacker, harness.store.signer] {
                    let answer = try await harness.deliver(try signer.sign(payloadJSON: Self.notificationJSON(signedDate: literal)))
                    #expect(answer.status == 422 && Self.errorCode(answer) == "INVALID_PAYLOAD", "\(literal)")
                }
            }
            let now = "\(Date().appStoreMilliseconds)"
            for member in [#""purchaseDate":253402300800000"#, #""expiresDate":-5"#, #""signedDate":1e999"#, #""price":1e30"#] {
                let transaction = try harness.store.signer.sign(payloadJSON: Data(#"""
                    {"transactionId":"9","originalTransactionId":"9","bundleId":"\#(ServiceHarness.bundleId)",\#
                    "environment":"Sandbox","productId":"com.example.monthly",\#(member)}
                    """#.utf8))
                let jws = try harness.store.signer.sign(payloadJSON: Self.notificationJSON(
                    signedDate: now, data: #","signedTransactionInfo":"\#(transaction)""#))
                let answer = try await harness.deliver(jws)
                #expect(answer.status == 422 && Self.errorCode(answer) == "INVALID_PAYLOAD", "\(member)")
            }
            for member in [#""renewalDate":253402300800000"#, #""gracePeriodExpiresDate":-1"#, #""renewalPrice":1e30"#] {
                let renewal = try harness.store.signer.sign(payloadJSON: Data(#"""
                    {"originalTransactionId":"9","productId":"com.example.monthly","environment":"Sandbox",\#(member)}
                    """#.utf8))
                let jws = try harness.store.signer.sign(payloadJSON: Self.notificationJSON(
                    signedDate: now, data: #","signedRenewalInfo":"\#(renewal)""#))
                let answer = try await harness.deliver(jws)
                #expect(answer.status == 422 && Self.errorCode(answer) == "INVALID_PAYLOAD", "\(member)")
            }
            #expect(try await harness.service.apps.first.repository.notificationCount() == 0)
            #expect(try await harness.service.apps.first.repository.queueStatistics(now: 0).queued == 0)
            #expect(try await harness.request(.GET, "/healthz", token: nil).status == 200)
        }
    }

    @Test(arguments: TestBackend.selected)
    func extremeButSignedValuesAreStoredAndProcessed(_ backend: TestBackend) async throws {
        // The simulator never sold transaction 7: its history cannot be read, so decide without waiting long.
        try await ServiceHarness.with(backend, extraSettings: ["VERDICT_HISTORY_WAIT": "1"]) { harness in
            let signer = harness.store.signer
            let now = Date().appStoreMilliseconds
            let transaction = try signer.sign(payloadJSON: Data(#"""
                {"transactionId":"7","originalTransactionId":"7","bundleId":"\#(ServiceHarness.bundleId)",\#
                "environment":"Sandbox","productId":"com.example.monthly","type":"Auto-Renewable Subscription",\#
                "price":9223372036854775807,"currency":"USD","purchaseDate":0,"originalPurchaseDate":0,\#
                "expiresDate":253402300799999,"signedDate":\#(now),"revocationDate":253402300799999,\#
                "revocationReason":1,"revocationPercentage":2147483647,"revocationType":"REFUND_PRORATED"}
                """#.utf8))
            let renewal = try signer.sign(payloadJSON: Data(#"""
                {"originalTransactionId":"7","productId":"com.example.monthly","autoRenewStatus":0,\#
                "environment":"Sandbox","signedDate":\#(now),"renewalDate":253402300799999,\#
                "recentSubscriptionStartDate":0,"renewalPrice":-9223372036854775808,"currency":"ÜSDOLLARS"}
                """#.utf8))
            let uuid = UUID().uuidString.lowercased()
            let jws = try signer.sign(payloadJSON: Self.notificationJSON(
                signedDate: "\(now)", type: "DID_CHANGE_RENEWAL_STATUS", subtype: "AUTO_RENEW_DISABLED", uuid: uuid,
                data: #","signedTransactionInfo":"\#(transaction)","signedRenewalInfo":"\#(renewal)""#))
            let answer = try await harness.deliver(jws)
            #expect(answer.status == 200, "\(String(decoding: answer.body, as: UTF8.self))")
            let record = try await harness.waitUntilProcessed(uuid)
            #expect(["processed", "failed"].contains(record["state"]?.stringValue ?? ""))
            // The service is still there, and the next real notification goes through.
            let real = try await harness.store.subscribe(SubscribeRequest(productId: "com.example.monthly"))
            await harness.simulator.deliverer.waitUntilIdle()
            #expect(try await harness.waitUntilProcessed(real.notification.notificationUUID)["state"]?.stringValue == "processed")
        }
    }

    @Test func aRetryAfterYearsAwayPutsTheJobOffADayAtMost() async throws {
        try await ServiceHarness.with(.sqlite) { harness in
            let tenYears = 10 * 365 * 86_400_000
            harness.simulator.faults.add(.rateLimited(retryAfterMilliseconds: tenYears, endpoint: .getTransactionHistory, count: nil))
            let subscribed = try await harness.store.subscribe(SubscribeRequest(productId: "com.example.monthly"))
            await harness.simulator.deliverer.waitUntilIdle()
            _ = try await harness.waitUntilProcessed(subscribed.notification.notificationUUID)
            let deadline = ContinuousClock.now + .seconds(20)
            var sync: JobRecord?
            while sync == nil, ContinuousClock.now < deadline {
                sync = try await harness.service.apps.first.repository.jobs(state: .queued, limit: 10)
                    .first { $0.job.kind == HistorySyncJob.kind && $0.lastError != nil }
                if sync == nil { try await Task.sleep(for: .milliseconds(50)) }
            }
            let job = try #require(sync, "the history sync was never refused and put off")
            let now = Date().appStoreMilliseconds
            #expect(job.job.runAt > now + 23 * 3_600_000 && job.job.runAt <= now + 24 * 3_600_000)
        }
    }

    @Test(arguments: TestBackend.selected)
    func repeatedKeysAreRefusedOnEveryJSONEndpoint(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            let token = UUID().uuidString.lowercased()
            let cases: [(HTTPMethod, String, String, String)] = [
                (.POST, "/v1/notifications", #"{"signedPayload":"a.b.c","signedPayload":"d.e.f"}"#, "signedPayload"),
                (.PUT, "/v1/customers/\(token)/consent", #"{"consented":true,"consented":false}"#, "consented"),
                (.PUT, "/v1/customers/\(token)/attributes", #"{"exportsLast30Days":1,"exportsLast30Days":50}"#, "exportsLast30Days"),
                (.PUT, "/v1/transactions/123/facts", #"{"deliveryStatus":"DELIVERED","deliveryStatus":"UNDELIVERED_OTHER"}"#, "deliveryStatus"),
                (.POST, "/v1/offers/decide", #"{"originalTransactionId":"1","trigger":"IN_APP","originalTransactionId":"2"}"#, "originalTransactionId"),
                (.POST, "/v1/offers/signatures", #"{"productId":"a","offerId":"b","offer\u0049d":"c"}"#, "offerId"),
                (.PUT, "/v1/customers/\(token)/attributes", #"{"a":{"b":[{"c":1,"c":2}]}}"#, "c"),
            ]
            for (method, path, body, key) in cases {
                let answer = try await harness.request(method, path, body: Data(body.utf8))
                #expect(answer.status == 400, "\(method) \(path)")
                #expect(Self.errorCode(answer) == "DUPLICATE_KEY", "\(method) \(path)")
                let message = answer.body.jsonObject["error"]?.objectValue?["message"]?.stringValue ?? ""
                #expect(message.contains("'\(key)'"), "\(message)")
            }
            // Nothing was recorded.
            #expect(try await harness.service.apps.first.repository.notificationCount() == 0)
            let consent = try await harness.request(.GET, "/v1/customers/\(token)/consent")
            #expect(consent.body.jsonObject["history"]?.arrayValue?.isEmpty == true, "\(String(decoding: consent.body, as: UTF8.self))")
            #expect(try await harness.request(.GET, "/v1/customers/\(token)/attributes").status == 404)
            #expect(try await harness.request(.GET, "/v1/transactions/123/facts").status == 404)
        }
    }
}

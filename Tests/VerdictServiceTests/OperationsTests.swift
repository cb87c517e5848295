import AppStoreServer
import AppStoreSimulator
import Foundation
import NIOHTTP1
import Hummingbird
import Testing
import VerdictService
import Yams

/// Probes, metrics, the OpenAPI document and bearer-token protection.
@Suite(.serialized) struct OperationsTests {
    @Test func probesAndReadiness() async throws {
        try await ServiceHarness.with(.sqlite, credentials: false) { harness in
            let health = try await harness.request(.GET, "/healthz", token: nil)
            #expect(health.status == 200)
            let ready = try await harness.request(.GET, "/readyz", token: nil)
            #expect(ready.status == 200)
            let body = ready.body.jsonObject
            #expect(body["ready"]?.boolValue == true)
            #expect(body["database"]?.objectValue?["ready"]?.boolValue == true)
            #expect(body["migrations"]?.objectValue?["ready"]?.boolValue == true)
            #expect(body["rules"]?.objectValue?["ready"]?.boolValue == true)
            let api = body["appStoreAPI"]?.objectValue
            #expect(api?["ready"]?.boolValue == false)
            #expect(api?["detail"]?.stringValue?.contains("VERDICT_APPSTORE_KEY_ID") == true)
        }
    }

    @Test func readinessFailsWithoutValidRules() async throws {
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-empty-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: empty) }
        try await ServiceHarness.with(.sqlite, extraSettings: ["VERDICT_RULES_DIR": empty.path]) { harness in
            let ready = try await harness.request(.GET, "/readyz", token: nil)
            #expect(ready.status == 503)
            #expect(ready.body.jsonObject["rules"]?.objectValue?["ready"]?.boolValue == false)
            // Intake still works: notifications are never refused because of the rules.
            let result = try await harness.store.subscribe(SubscribeRequest(productId: "com.example.monthly"))
            await harness.simulator.deliverer.waitUntilIdle()
            _ = try await harness.waitUntilProcessed(result.notification.notificationUUID)
        }
    }

    @Test func metricsCountNotificationsFailuresAndJobs() async throws {
        try await ServiceHarness.with(.sqlite) { harness in
            let result = try await harness.store.subscribe(SubscribeRequest(productId: "com.example.monthly"))
            await harness.simulator.deliverer.waitUntilIdle()
            _ = try await harness.waitUntilProcessed(result.notification.notificationUUID)
            _ = try await harness.deliver(result.notification.signedPayload)
            _ = try await harness.deliver("a.b.c")
            #expect(try await harness.request(.GET, "/metrics", token: nil).status == 401)
            let (status, body) = try await harness.request(.GET, "/metrics")
            #expect(status == 200)
            let text = String(decoding: body, as: UTF8.self)
            #expect(text.contains(#"verdict_notifications_total{type="SUBSCRIBED",result="accepted",app="com.example.verdict"} 1"#))
            #expect(text.contains(#"verdict_notifications_total{type="SUBSCRIBED",result="duplicate",app="com.example.verdict"} 1"#))
            #expect(text.contains(#"verdict_verification_failures_total{code="INVALID_JWS"} 1"#))
            #expect(text.contains(#"verdict_job_attempts_total{kind="process-notification",outcome="done"} 1"#))
            #expect(text.contains("verdict_job_duration_seconds_bucket"))
            #expect(text.contains(#"verdict_jobs{kind="process-notification",state="queued"}"#))
            #expect(text.contains("verdict_job_queue_oldest_age_seconds"))
            #expect(text.contains(#"verdict_notification_intake_seconds_count{result="accepted"} 1"#))
            #expect(text.contains(#"verdict_notification_intake_seconds_count{result="duplicate"} 1"#))
            #expect(text.contains("# HELP verdict_notifications_total Notifications received"))
            // The first sight of the customer asked for a history sync through the simulator's API
            // (a job of its own: it may run a moment after the notification's).
            let call = #"verdict_appstore_api_calls_total{endpoint="GET /inApps/v2/history/{id}",status="200"}"#
            let deadline = ContinuousClock.now + .seconds(20)
            var metrics = text
            while !metrics.contains(call), ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
                metrics = String(decoding: try await harness.request(.GET, "/metrics").body, as: UTF8.self)
            }
            #expect(metrics.contains(call))
        }
    }

    @Test func requestIdsAreEchoed() async throws {
        try await ServiceHarness.with(.sqlite) { harness in
            var request = HTTPClientRequestBuilder(url: harness.baseURL + "/healthz")
            request.header("X-Request-Id", "abc-123")
            let (headers, _) = try await request.send()
            #expect(headers.first(name: "X-Request-Id") == "abc-123")
        }
    }
}

import AppStoreSimulator
import Foundation
import Testing
import VerdictTestSupport

/// With `OTEL_METRICS_EXPORTER=otlp` and an endpoint, the service's metrics are also exported over
/// OTLP, under the names `/metrics` serves (which still serves them) — beside the traces, whose
/// spans never include the exporters' own HTTP calls.
@Suite struct MetricsExportTests {
    @Test func theServicesMetricsAreAlsoExportedOverOTLP() async throws {
        try await OTLPReceiver.with { receiver, endpoint in
            try await ServiceHarness.with(.sqlite, startService: false) { harness in
                try await ServiceProcess.group { children in
                    var settings = harness.environment
                    settings["OTEL_EXPORTER_OTLP_ENDPOINT"] = endpoint
                    settings["OTEL_METRICS_EXPORTER"] = "otlp"
                    settings["OTEL_METRIC_EXPORT_INTERVAL"] = "300"
                    settings["OTEL_BSP_SCHEDULE_DELAY"] = "100"
                    let child = try await children.start(settings, directory: harness.database.directory, name: "metrics")
                    let bought = try await harness.store.subscribe(SubscribeRequest(productId: "com.lumen.pro.annual"))
                    #expect(try await child.deliver(bought.notification.signedPayload).status == 200)
                    _ = try await child.waitUntilSettled([bought.notification.notificationUUID])
                    let deadline = ContinuousClock.now + .seconds(20)
                    let expected: Set = ["verdict_notifications_total", "verdict_job_attempts_total", "verdict_notification_intake_seconds"]
                    while !receiver.metrics.isSuperset(of: expected), ContinuousClock.now < deadline {
                        try await Task.sleep(for: .milliseconds(100))
                    }
                    #expect(receiver.metrics.isSuperset(of: expected), "\(receiver.metrics.sorted())")
                    // Several metric exports later, no span of an HTTP client (whole URLs) was sent.
                    #expect(!receiver.spans.isEmpty)
                    #expect(receiver.spans.allSatisfy { $0.attributes["url.full"] == nil }, "\(receiver.spans.map(\.name))")
                    let (status, body) = try await child.request(.GET, "/metrics")
                    #expect(status == 200)
                    #expect(String(decoding: body, as: UTF8.self).contains("# HELP verdict_notifications_total"))
                }
            }
        }
    }
}

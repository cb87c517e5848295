import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing
import VerdictTestSupport

/// With an OTLP endpoint set, `verdict serve` exports one trace per notification: the HTTP request,
/// its verification and durable store, the processing job (joined through the `traceparent`
/// stored with it), the App Store Server API calls and the rule evaluation with the rule that
/// decided — and no secret, signed payload or appAccountToken in any attribute. The JSON log lines
/// written inside carry the trace's ids.
@Suite struct NotificationTraceTests {
    static let appAccountToken = UUID(uuidString: "7e3f1c2a-5b4d-4e6f-8a9b-0c1d2e3f4a5b")!
    static let vendorKey = "vendor-key-3c9e71d04b"

    /// The settings of a traced child: the harness's, exporting to `endpoint` quickly.
    static func traced(_ harness: ServiceHarness, endpoint: String) -> [String: String] {
        var settings = harness.environment
        settings["OTEL_EXPORTER_OTLP_ENDPOINT"] = endpoint
        settings["OTEL_EXPORTER_OTLP_PROTOCOL"] = "http/protobuf"
        settings["OTEL_SERVICE_NAME"] = "verdict-under-test"
        settings["OTEL_BSP_SCHEDULE_DELAY"] = "100"
        settings["VERDICT_LOG_LEVEL"] = "info"
        // A vendor's key, as operators set one: it must reach no log line.
        settings["OTEL_EXPORTER_OTLP_HEADERS"] = "x-vendor-api-key=\(vendorKey)"
        settings["OTEL_LOG_LEVEL"] = "debug"
        // OpenTelemetry's default list, which swift-otel cannot build (baggage): W3C trace context is used.
        settings["OTEL_PROPAGATORS"] = "tracecontext,baggage"
        // Explicitly not disabled: swift-otel would then turn its logs and metrics on (a crash).
        settings["OTEL_SDK_DISABLED"] = "false"
        return settings
    }

    /// A full-price annual subscriber (with ``appAccountToken``) who then turns auto-renew off, each
    /// notification delivered to `child` and processed: the offer rule decides the second.
    static func subscribeAndTurnAutoRenewOff(_ harness: ServiceHarness, _ child: ServiceProcess) async throws
        -> (originalTransactionId: String, left: ScenarioResult) {
        let bought = try await harness.store.subscribe(SubscribeRequest(
            productId: "com.lumen.pro.annual", price: 59_990, currency: "USD", period: .oneYear,
            appAccountToken: appAccountToken))
        let otid = try #require(bought.originalTransactionId)
        #expect(try await child.deliver(bought.notification.signedPayload).status == 200)
        _ = try await child.waitUntilSettled([bought.notification.notificationUUID])
        let left = try await harness.store.setAutoRenew(originalTransactionId: otid, enabled: false)
        #expect(try await child.deliver(left.notification.signedPayload).status == 200)
        _ = try await child.waitUntilSettled([left.notification.notificationUUID])
        return (otid, left)
    }

    /// The chain of spans from `span` up to its trace's root.
    static func ancestry(of span: OTLPReceiver.Span, in spans: [OTLPReceiver.Span]) -> [OTLPReceiver.Span] {
        var chain = [span]
        while let parent = chain.last.flatMap({ last in spans.first { $0.spanId == last.parentSpanId && $0.traceId == last.traceId } }) {
            chain.append(parent)
        }
        return chain
    }

    @Test func oneNotificationIsOneTraceFromTheRequestToTheRuleThatDecided() async throws {
        try await OTLPReceiver.with { receiver, endpoint in
            try await WebhookReceiver.with(failFirst: 0) { webhooks, webhookURL in
                try await ServiceHarness.with(.sqlite, startService: false) { harness in
                    try await ServiceProcess.group { children in
                        // The webhook URL holds a secret, as some receivers' URLs do.
                        var settings = Self.traced(harness, endpoint: endpoint)
                        settings["VERDICT_WEBHOOK_URL"] = webhookURL.absoluteString + "?key=hook-secret-5f3a"
                        settings["VERDICT_WEBHOOK_SECRET"] = "webhook-signing-secret"
                        let child = try await children.start(settings, directory: harness.database.directory, name: "traced")
                        _ = try await Self.subscribeAndTurnAutoRenewOff(harness, child)

                        // Spans arrive in batches: wait until both chains reach Apple's POST.
                        let spans = try await receiver.waitFor("the offer rule evaluation and its webhook, with their ancestry") { spans in
                            let ends = [
                                spans.first { $0.attributes["verdict.rules.rule_id"] == "annual-full-price-payer" },
                                spans.first { $0.name == "deliver webhook" },
                            ].map { $0.flatMap { Self.ancestry(of: $0, in: spans).last } }
                            return ends.allSatisfy { $0?.name == "POST /v1/notifications" }
                        }
                        let evaluation = try #require(spans.first { $0.attributes["verdict.rules.rule_id"] == "annual-full-price-payer" })
                        #expect(evaluation.attributes["verdict.rules.section"] == "offers")
                        #expect(evaluation.attributes["verdict.rules.result"] == "offer lumen-annual-40off")
                        #expect(evaluation.attributes["verdict.rules.bundle_hash"]?.hasPrefix("sha256:") == true)
                        #expect(evaluation.resource["service.name"] == "verdict-under-test")

                        // From the rule evaluation up: the processing job, then Apple's POST.
                        let chain = Self.ancestry(of: evaluation, in: spans)
                        let root = try #require(chain.last)
                        #expect(root.name == "POST /v1/notifications", "\(chain)")
                        #expect(root.kind == 2 && root.parentSpanId.isEmpty)
                        #expect(root.attributes["http.response.status_code"] == "200")
                        #expect(chain.contains { $0.name == "job process-notification" && $0.kind == 5 }, "\(chain)")
                        let trace = spans.filter { $0.traceId == root.traceId }
                        for name in ["verify notification", "store notification"] {
                            #expect(trace.contains { $0.name == name && $0.parentSpanId == root.spanId }, "\(name): \(trace)")
                        }
                        // The store's database transaction is its child (SQLite: no cap lock to wait for).
                        let store = try #require(trace.first { $0.name == "store notification" })
                        let insert = try #require(trace.first { $0.parentSpanId == store.spanId })
                        #expect(insert.attributes["db.system.name"] == "sqlite" && insert.name.hasPrefix("INSERT notifications INSERT jobs"),
                                "\(insert.name)")
                        #expect(!spans.contains { $0.name == "wait for cap lock" })
                        // The decision's webhook is delivered by a job of that trace.
                        let delivery = try #require(trace.first { $0.name == "deliver webhook" })
                        #expect(delivery.kind == 3 && delivery.attributes["http.response.status_code"] == "200")
                        #expect(Self.ancestry(of: delivery, in: spans).contains { $0.name == "job deliver-webhook" })
                        #expect(!webhooks.deliveries.isEmpty)
                        // The first sight of the customer synced its history (a job of its own): Apple's
                        // call is a client span in the first notification's trace, under that job.
                        let call = try #require(spans.first { $0.name == "App Store Server API GET /inApps/v2/history/{id}" })
                        #expect(call.kind == 3 && call.attributes["http.response.status_code"] == "200")
                        let callChain = Self.ancestry(of: call, in: spans)
                        #expect(callChain.last?.name == "POST /v1/notifications" && callChain.last?.traceId != root.traceId, "\(callChain)")
                        #expect(callChain.contains { $0.name.hasPrefix("job ") && $0.kind == 5 }, "\(callChain)")

                        // No secret, signed payload or customer identifier in any span.
                        let token = try #require(harness.environment["VERDICT_API_TOKENS"]?.split(separator: ":").last.map(String.init))
                        let forbidden = [token, Self.appAccountToken.uuidString.lowercased(), Self.appAccountToken.uuidString, "eyJ",
                                         "hook-secret-5f3a", "webhook-signing-secret", Self.vendorKey]
                        for span in receiver.spans {
                            for text in span.texts {
                                #expect(!forbidden.contains { text.contains($0) }, "\(span.name): \(text)")
                            }
                            // AsyncHTTPClient's own spans (whole URLs) are off.
                            #expect(span.attributes["url.full"] == nil && span.attributes["url.query"] == nil, "\(span.name)")
                        }
                        #expect(receiver.contentTypes.allSatisfy { $0 == "application/x-protobuf" }, "\(receiver.contentTypes)")

                        // The request's log line carries the trace and the span that were exported.
                        try await child.terminate()
                        let lines = child.logLines.compactMap { JSONValue.parse(Data($0.utf8))?.objectValue }
                        #expect(lines.count == child.logLines.count, "every line is JSON, swift-otel's own too")
                        #expect(lines.contains { $0["label"]?.stringValue == "opentelemetry" }, "swift-otel's lines are there")
                        #expect(!child.logText.contains(Self.vendorKey), "no log line holds the OTLP headers")
                        let exported = Set(trace.map(\.spanId))
                        let joined = lines.filter { $0["trace_id"]?.stringValue == root.traceId }
                        #expect(joined.contains { $0["msg"]?.stringValue == "request" && $0["span_id"]?.stringValue == root.spanId },
                                "\(lines.suffix(5))")
                        #expect(joined.allSatisfy { exported.contains($0["span_id"]?.stringValue ?? "") })
                    }
                }
            }
        }
    }

    @Test(.enabled(if: TestBackend.selected.contains(.postgres)))
    func aJobRunOnAnotherInstanceContinuesTheTraceOfTheRequest() async throws {
        try await OTLPReceiver.with { receiver, endpoint in
            try await ServiceHarness.with(.postgres, startService: false) { harness in
                try await ServiceProcess.group { children in
                    var settings = Self.traced(harness, endpoint: endpoint)
                    settings["VERDICT_WORKER_LEASE"] = "3"
                    let directory = harness.database.directory
                    settings["OTEL_RESOURCE_ATTRIBUTES"] = "service.instance.id=intake-instance"
                    let intake = try await children.start(settings, directory: directory, name: "intake")
                    settings["OTEL_RESOURCE_ATTRIBUTES"] = "service.instance.id=other-instance"
                    _ = try await children.start(settings, directory: directory, name: "other")
                    // Apple's history fails, so the job waits for it (runs again a second later).
                    harness.simulator.faults.add(.generalInternalRetryable(.getTransactionHistory, count: nil))
                    let bought = try await harness.store.subscribe(SubscribeRequest(
                        productId: "com.lumen.pro.annual", price: 59_990, currency: "USD", period: .oneYear))
                    let left = try await harness.store.setAutoRenew(originalTransactionId: try #require(bought.originalTransactionId), enabled: false)
                    // The intake instance stores the notification and stops at once: whether or not
                    // its worker made a first attempt, the job's next attempt is the other instance's.
                    #expect(try await intake.deliver(left.notification.signedPayload).status == 200)
                    intake.suspend()
                    defer { intake.resume() }

                    let spans = try await receiver.waitFor("the job's span from the other instance") { spans in
                        spans.contains { $0.name == "job process-notification" && $0.resource["service.instance.id"] == "other-instance" }
                    }
                    let job = try #require(spans.first {
                        $0.name == "job process-notification" && $0.resource["service.instance.id"] == "other-instance"
                    })
                    // The intake instance exports its request's span once it runs again.
                    intake.resume()
                    let request = try #require(try await receiver.waitFor("the request's span from the intake instance") { spans in
                        spans.contains { $0.spanId == job.parentSpanId }
                    }.first { $0.spanId == job.parentSpanId })
                    #expect(request.name == "POST /v1/notifications")
                    #expect(request.traceId == job.traceId)
                    #expect(request.resource["service.instance.id"] == "intake-instance")
                    #expect(request.attributes["http.response.status_code"] == "200")
                }
            }
        }
    }

    /// What swift-otel would crash on or cannot build stops the start with exit 78 and says why.
    @Test(arguments: [("OTEL_EXPORTER_OTLP_PROTOCOL", "grpc"), ("OTEL_TRACES_SAMPLER", "xray"),
                      ("OTEL_TRACES_SAMPLER", "parentbased_jaeger_remote"), ("OTEL_TRACES_EXPORTER", "zipkin")])
    func aSettingThisBuildCannotHonourIsRefusedAtStart(_ key: String, _ value: String) async throws {
        try await ServiceHarness.with(.sqlite, startService: false) { harness in
            var settings = Self.traced(harness, endpoint: "http://127.0.0.1:4317")
            settings[key] = value
            let (status, output) = try await ServiceProcess.run(
                ["serve"], settings: settings, directory: harness.database.directory, name: "refused")
            #expect(status == 78)
            #expect(output.contains("verdict: configuration error: OpenTelemetry: \(key)=\(value)"), "\(output)")
        }
    }

    @Test func aTraceHeaderTheTracerCannotReadPutsNoOtherHeaderInTheLogs() async throws {
        try await OTLPReceiver.with { _, endpoint in
            try await ServiceHarness.with(.sqlite, startService: false) { harness in
                try await ServiceProcess.group { children in
                    let child = try await children.start(
                        Self.traced(harness, endpoint: endpoint), directory: harness.database.directory, name: "garbled")
                    let headers = [("traceparent", "garbage-0123"), ("tracestate", "Bad Key=1"), ("Cookie", "verdict_session=cookie-secret-77")]
                    #expect(try await child.request(.GET, "/v1/jobs", headers: headers).status == 200)
                    #expect(try await child.request(.GET, "/healthz", token: nil, headers: headers).status == 200)
                    try await child.terminate()
                    let token = try #require(harness.environment["VERDICT_API_TOKENS"]?.split(separator: ":").last.map(String.init))
                    #expect(!child.logText.contains(token))
                    #expect(!child.logText.contains("cookie-secret-77"))
                }
            }
        }
    }
}

import AppStoreSimulator
import Foundation
import Testing
import VerdictTestSupport

/// Database calls made for a notification are client spans of its trace, named and described by
/// OpenTelemetry's database conventions: the intake's store, and the decision's transaction with
/// its wait for the cap lock as a child span (PostgreSQL's advisory lock). Never a bind value, the
/// query text or the customer a cap counts; the job queue's polling, outside any trace, makes none.
@Suite struct DatabaseTraceTests {
    @Test(.enabled(if: TestBackend.selected.contains(.postgres)))
    func theDecisionsTransactionAndItsCapLockWaitAreSpansOfTheNotificationsTrace() async throws {
        try await OTLPReceiver.with { receiver, endpoint in
            try await ServiceHarness.with(.postgres, startService: false) { harness in
                try await ServiceProcess.group { children in
                    let child = try await children.start(
                        NotificationTraceTests.traced(harness, endpoint: endpoint), directory: harness.database.directory, name: "db")
                    let (otid, left) = try await NotificationTraceTests.subscribeAndTurnAutoRenewOff(harness, child)

                    // The decision's transaction, in the trace of the notification that turned auto-renew
                    // off: both caps' locks (per customer, per offer) wait inside it.
                    let uuid = left.notification.notificationUUID
                    func decisionWaits(_ spans: [OTLPReceiver.Span]) -> [OTLPReceiver.Span]? {
                        guard let store = spans.first(where: { $0.name == "store notification" && $0.attributes["apple.notification.uuid"] == uuid }),
                              let first = spans.first(where: { $0.name == "wait for cap lock" && $0.traceId == store.traceId }),
                              let decision = spans.first(where: { $0.spanId == first.parentSpanId }),
                              NotificationTraceTests.ancestry(of: decision, in: spans).last?.name == "POST /v1/notifications"
                        else { return nil }
                        let waits = spans.filter { $0.name == "wait for cap lock" && $0.parentSpanId == first.parentSpanId }
                        return waits.count == 2 ? waits : nil
                    }
                    let spans = try await receiver.waitFor("the decision's cap lock waits in the notification's trace") {
                        decisionWaits($0) != nil
                    }
                    let url = try #require(harness.environment["VERDICT_DATABASE_URL"])
                    let database = try #require(URLComponents(string: url)?.path)
                    let waits = try #require(decisionWaits(spans))
                    #expect(Set(waits.map { $0.attributes["verdict.cap.scope"] ?? "" }) == ["customer", "offer"])
                    #expect(waits.contains { $0.attributes["verdict.cap.offer_id"] == "lumen-annual-40off" && $0.attributes["verdict.cap.max"] == "1000" })
                    let decision = try #require(spans.first { $0.spanId == waits[0].parentSpanId })
                    #expect(waits.allSatisfy { $0.kind == 3 && $0.traceId == decision.traceId })
                    #expect(waits.allSatisfy { $0.attributes["db.query.summary"] == "SELECT pg_advisory_xact_lock" })
                    #expect(decision.name.contains("INSERT offer_decisions") && decision.name.hasPrefix("SELECT pg_advisory_xact_lock"),
                            "\(decision.name)")
                    #expect(decision.attributes["db.query.summary"] == decision.name && decision.kind == 3)
                    #expect(decision.attributes["db.system.name"] == "postgresql")
                    #expect(decision.attributes["db.namespace"].map { "/" + $0 } == database)
                    let components = URLComponents(string: url)
                    #expect(decision.attributes["server.address"] == components?.host)
                    #expect(decision.attributes["server.port"] == components?.port.map(String.init))
                    #expect(decision.attributes["verdict.db.transaction"] == "true")
                    #expect(NotificationTraceTests.ancestry(of: decision, in: spans).contains { $0.name == "job process-notification" })

                    // The intake's store: one statement on PostgreSQL, a child of `store notification`.
                    let request = try #require(NotificationTraceTests.ancestry(of: decision, in: spans).last)
                    #expect(request.name == "POST /v1/notifications" && request.traceId == decision.traceId)
                    let store = try #require(spans.first { $0.name == "store notification" && $0.traceId == request.traceId })
                    let insert = try #require(spans.first { $0.parentSpanId == store.spanId })
                    #expect(insert.name == "SELECT nextval INSERT notifications INSERT jobs", "\(insert.name)")
                    #expect(insert.attributes["db.system.name"] == "postgresql" && insert.attributes["verdict.db.transaction"] == nil)

                    // Every database span is a child in a notification's trace; none holds query text or a bind.
                    let databaseSpans = receiver.spans.filter { $0.attributes["db.system.name"] != nil }
                    #expect(databaseSpans.count > 4)
                    let forbidden = [NotificationTraceTests.appAccountToken.uuidString.lowercased(), otid, "$1", "eyJ"]
                    for span in databaseSpans {
                        #expect(!span.parentSpanId.isEmpty, "\(span.name) is a root")
                        #expect(span.attributes["db.query.text"] == nil, "\(span.name)")
                        for text in span.texts { #expect(!forbidden.contains { text.contains($0) }, "\(span.name): \(text)") }
                    }
                }
            }
        }
    }
}

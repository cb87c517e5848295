import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing
import VerdictTestSupport

/// Work shared by two notifications belongs to the first one's trace: a customer's history sync,
/// started by the first notification and failing at Apple (retried, each attempt a new span in
/// that trace, with Apple's error code), is joined by the second notification's processing, whose
/// trace links to it.
@Suite struct SharedWorkTraceTests {
    typealias Span = OTLPReceiver.Span

    @Test func aSharedHistorySyncStaysInTheFirstTraceAndTheSecondLinksToIt() async throws {
        try await OTLPReceiver.with { receiver, endpoint in
            try await ServiceHarness.with(.sqlite, startService: false) { harness in
                try await ServiceProcess.group { children in
                    harness.simulator.faults.add(.generalInternalRetryable(.getTransactionHistory, count: nil))
                    let child = try await children.start(
                        NotificationTraceTests.traced(harness, endpoint: endpoint), directory: harness.database.directory, name: "shared")
                    let bought = try await harness.store.subscribe(SubscribeRequest(
                        productId: "com.lumen.pro.annual", price: 59_990, currency: "USD", period: .oneYear))
                    let otid = try #require(bought.originalTransactionId)
                    #expect(try await child.deliver(bought.notification.signedPayload).status == 200)
                    _ = try await child.waitUntilSettled([bought.notification.notificationUUID])
                    let renewed = try await harness.store.setAutoRenew(originalTransactionId: otid, enabled: false)
                    #expect(try await child.deliver(renewed.notification.signedPayload).status == 200)

                    let spans = try await receiver.waitFor("a link to the shared sync and a retried sync") { spans in
                        spans.contains { $0.name == "history sync shared with another notification" }
                            && spans.filter { $0.name == "job sync-history" }.count >= 2
                    }
                    let root = { (span: Span) in NotificationTraceTests.ancestry(of: span, in: spans).last }
                    let syncs = spans.filter { $0.name == "job sync-history" }
                    let first = try #require(root(syncs[0]))
                    #expect(first.name == "POST /v1/notifications")
                    // Each attempt of the sync is a span of its own under the first notification's job.
                    #expect(Set(syncs.map(\.parentSpanId)).count == 1)
                    #expect(syncs.allSatisfy { root($0)?.spanId == first.spanId })
                    let failed = try #require(spans.first { $0.name == "App Store Server API GET /inApps/v2/history/{id}" })
                    #expect(failed.attributes["http.response.status_code"] == "500")
                    #expect(failed.attributes["apple.error_code"] == "5000001")
                    #expect(failed.status == 2)

                    // The second notification's trace links to the job that started the sync.
                    let link = try #require(spans.first { $0.name == "history sync shared with another notification" })
                    let second = try #require(root(link))
                    #expect(second.name == "POST /v1/notifications" && second.traceId != first.traceId)
                    #expect(link.links.count == 1)
                    #expect(link.links.first?.traceId == first.traceId)
                    #expect(link.links.first?.spanId == syncs[0].parentSpanId)
                }
            }
        }
    }
}

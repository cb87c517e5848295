import AppStoreServer
import AsyncHTTPClient
import Foundation

/// Runs a performance test like Apple's: `totalRequests` signed realtime requests for the test's
/// subscription, at most `maxConcurrentRequests` at once, each timed. A request succeeds when the
/// answer is a 200 with a valid `RealtimeResponseBody` within `responseTimeThreshold`; otherwise
/// it counts under Apple's `SendAttemptResult` reason (`TIMED_OUT`, `UNSUCCESSFUL_HTTP_RESPONSE_CODE`,
/// `INVALID_RESPONSE`, `NO_RESPONSE`, …).
struct PerformanceTestRunner: Sendable {
    let store: SimulatorStore
    let httpClient: HTTPClient

    func run(id: String, test: SimulatedPerformanceTest) async {
        let threshold = test.config.responseTimeThreshold ?? 700
        let concurrency = max(1, test.config.maxConcurrentRequests ?? 1)
        await withTaskGroup(of: Void.self) { group in
            var started = 0
            func startNext() {
                guard started < test.total else { return }
                started += 1
                group.addTask { await self.one(id: id, test: test, threshold: threshold) }
            }
            for _ in 0..<concurrency { startNext() }
            while await group.next() != nil { startNext() }
        }
    }

    private func one(id: String, test: SimulatedPerformanceTest, threshold: Int64) async {
        let outcome: (milliseconds: Int64?, failure: SendAttemptResult?)
        do {
            let body = try await store.realtimeRequest(originalTransactionId: test.originalTransactionId).body
            var request = HTTPClientRequest(url: test.target)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/json")
            request.headers.add(name: "User-Agent", value: "App Store Retention Messaging (Verdict simulator)")
            request.body = .bytes(try JSONEncoder().encode(body))
            let started = ContinuousClock.now
            let response = try await httpClient.execute(request, timeout: .milliseconds(threshold * 3))
            let data = try await response.body.collect(upTo: 1 << 20)
            let elapsed = ContinuousClock.now - started
            let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
            if response.status.code != 200 {
                outcome = (milliseconds, .unsuccessfulHttpResponseCode)
            } else if (try? AppStoreJSON.decoder().decode(RealtimeResponseBody.self, from: Data(data.readableBytesView))) == nil {
                outcome = (milliseconds, .invalidResponse)
            } else if milliseconds > threshold {
                outcome = (milliseconds, .timedOut)
            } else {
                outcome = (milliseconds, nil)
            }
        } catch {
            outcome = (nil, NotificationDeliverer.classify(error))
        }
        await store.recordPerformanceTestRequest(id: id, milliseconds: outcome.milliseconds, failure: outcome.failure)
    }
}

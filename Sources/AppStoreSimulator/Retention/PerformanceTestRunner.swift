import AppStoreServer
import AsyncHTTPClient
import Foundation

/// Runs a performance test like Apple's: `totalRequests` signed realtime requests for the test's
/// subscription, at most `maxConcurrentRequests` at once, each timed. A request succeeds when the
/// answer is a 200 with a valid `RealtimeResponseBody` within `responseTimeThreshold`; otherwise
/// it counts under Apple's `SendAttemptResult` reason (`TIMED_OUT`, `UNSUCCESSFUL_HTTP_RESPONSE_CODE`,
/// `INVALID_RESPONSE`, `NO_RESPONSE`, …). A request still unanswered after three thresholds is
/// cut and counts as `TIMED_OUT` with the time it was waited for.
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
        let caller = RealtimeCaller(store: store, httpClient: httpClient)
        guard let call = try? await caller.call(
            originalTransactionId: test.originalTransactionId, userLocale: "en-US", url: test.target, threshold: threshold,
            timeout: threshold * 3)
        else {
            await store.recordPerformanceTestRequest(id: id, milliseconds: nil, failure: .other)
            return
        }
        await store.recordPerformanceTestRequest(id: id, milliseconds: call.milliseconds, failure: call.failure.map(SendAttemptResult.init(rawValue:)))
    }
}

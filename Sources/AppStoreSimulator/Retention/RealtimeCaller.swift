import AppStoreServer
import AsyncHTTPClient
import Foundation

/// One realtime call as the App Store makes it: a signed request for the subscription, posted to
/// the realtime URL, timed, and judged as Apple's performance test judges it.
struct RealtimeCaller: Sendable {
    /// What came back.
    struct Call: Sendable, Encodable {
        var realtimeURL: String
        var requestIdentifier: String
        var status: Int?
        var milliseconds: Int64?
        /// The answer when it is a valid `RealtimeResponseBody`.
        var answer: RealtimeResponseBody?
        /// Why the call failed (Apple's `SendAttemptResult` names); nil on success.
        var failure: String?
    }

    let store: SimulatorStore
    let httpClient: HTTPClient

    /// Posts one request and waits up to `timeout` milliseconds; an answer later than `threshold`
    /// is `TIMED_OUT` (Apple would have shown its fallback) but still reported. A call cut at
    /// `timeout` is timed too: its time is how long it was waited for (a lower bound).
    func call(originalTransactionId: String, userLocale: String, url: String, threshold: Int64, timeout: Int64) async throws -> Call {
        let (body, request) = try await store.realtimeRequest(originalTransactionId: originalTransactionId, userLocale: userLocale)
        var call = Call(realtimeURL: url, requestIdentifier: request.requestIdentifier.uuidString.lowercased())
        let started = ContinuousClock.now
        func milliseconds() -> Int64 {
            let elapsed = ContinuousClock.now - started
            return elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        }
        do {
            var post = HTTPClientRequest(url: url)
            post.method = .POST
            post.headers.add(name: "Content-Type", value: "application/json")
            post.headers.add(name: "User-Agent", value: "App Store Retention Messaging (Verdict simulator)")
            post.body = .bytes(try JSONEncoder().encode(body))
            let response = try await httpClient.execute(post, timeout: .milliseconds(timeout))
            let data = try await response.body.collect(upTo: 1 << 20)
            call.milliseconds = milliseconds()
            call.status = Int(response.status.code)
            call.answer = try? AppStoreJSON.decoder().decode(RealtimeResponseBody.self, from: Data(data.readableBytesView))
            if response.status.code != 200 {
                call.failure = SendAttemptResult.unsuccessfulHttpResponseCode.rawValue
            } else if call.answer == nil {
                call.failure = SendAttemptResult.invalidResponse.rawValue
            } else if let milliseconds = call.milliseconds, milliseconds > threshold {
                call.failure = SendAttemptResult.timedOut.rawValue
            }
        } catch {
            let failure = NotificationDeliverer.classify(error)
            if failure == .timedOut { call.milliseconds = milliseconds() }
            call.failure = failure.rawValue
        }
        return call
    }
}

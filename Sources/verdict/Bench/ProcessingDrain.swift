import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// After the bench has sent everything: waits until the service has processed it, by reading
/// `verdict_jobs{kind="process-notification",state=…}` from `/metrics` (bearer token) until no
/// processing job is queued or running.
struct ProcessingDrain {
    let metricsURL: String
    let token: String
    var timeout: Duration = .seconds(600)
    var interval: Duration = .milliseconds(250)

    /// What waiting found.
    struct Result {
        /// Processing jobs queued or running when the wait began.
        var pendingAtStart: Int
        /// Seconds until none was left.
        var seconds: Double
    }

    enum Failure: Error, CustomStringConvertible {
        case unreadable(String)
        case timedOut(pending: Int, after: Duration)

        var description: String {
            switch self {
            case .unreadable(let reason): "could not read the service's /metrics: \(reason)"
            case .timedOut(let pending, let after): "\(pending) notifications were still unprocessed after \(after)"
            }
        }
    }

    /// Polls until no `process-notification` job is queued or running.
    func wait(client: HTTPClient) async throws -> Result {
        let clock = ContinuousClock()
        let start = clock.now
        let first = try await pending(client: client)
        var current = first
        while current > 0 {
            guard clock.now - start < timeout else { throw Failure.timedOut(pending: current, after: timeout) }
            try await Task.sleep(for: interval)
            current = try await pending(client: client)
        }
        return Result(pendingAtStart: first, seconds: (clock.now - start).seconds)
    }

    private func pending(client: HTTPClient) async throws -> Int {
        var request = HTTPClientRequest(url: metricsURL)
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 8 << 20)
        guard response.status == .ok else { throw Failure.unreadable("HTTP \(response.status.code)") }
        guard let count = Self.pendingProcessing(inMetrics: String(buffer: body)) else {
            throw Failure.unreadable("no verdict_jobs gauge for process-notification")
        }
        return count
    }

    /// Queued plus running `process-notification` jobs in a Prometheus text exposition, or nil
    /// when the page has neither gauge.
    static func pendingProcessing(inMetrics text: String) -> Int? {
        var total: Int?
        for line in text.split(separator: "\n") where line.hasPrefix("verdict_jobs{") {
            guard line.contains(#"kind="process-notification""#),
                  line.contains(#"state="queued""#) || line.contains(#"state="running""#),
                  let value = line.split(separator: " ").last.flatMap({ Double($0) }), value.isFinite, value >= 0
            else { continue }
            total = (total ?? 0) + Int(value)
        }
        return total
    }
}

import AsyncHTTPClient
import Foundation

/// The realtime figures of the service's `/metrics`: answers by result and cause, and the
/// cumulative buckets of `verdict_retention_realtime_seconds`.
struct RealtimeMetrics {
    /// `result/cause` → count (`offer/answered`, `fallback/deadline`, …).
    var answers: [String: Int] = [:]
    /// Upper bound in seconds → answers at most that long (cumulative, as Prometheus keeps them).
    var buckets: [Double: Int] = [:]

    static func read(_ baseURL: String, token: String) async throws -> RealtimeMetrics {
        var request = HTTPClientRequest(url: baseURL + "/metrics")
        request.headers.add(name: "Authorization", value: "Bearer \(token)")
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(10))
        let text = String(buffer: try await response.body.collect(upTo: 4 << 20))
        guard response.status == .ok else { throw BenchFailure("GET /metrics answered \(response.status.code)") }
        return parse(text)
    }

    static func parse(_ text: String) -> RealtimeMetrics {
        var metrics = RealtimeMetrics()
        for line in text.split(separator: "\n") where line.hasPrefix("verdict_retention_realtime_") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            let labels = label(in: line)
            if line.hasPrefix("verdict_retention_realtime_total{"), let result = labels["result"], let cause = labels["cause"] {
                metrics.answers["\(result)/\(cause)"] = Int(value)
            } else if line.hasPrefix("verdict_retention_realtime_seconds_bucket{"), let bound = labels["le"].flatMap(Double.init) {
                metrics.buckets[bound] = Int(value)
            }
        }
        return metrics
    }

    /// `name="value"` pairs of a sample line.
    private static func label(in line: Substring) -> [String: String] {
        guard let open = line.firstIndex(of: "{"), let close = line.firstIndex(of: "}") else { return [:] }
        var labels: [String: String] = [:]
        for pair in line[line.index(after: open)..<close].split(separator: ",") {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { labels[String(parts[0])] = parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
        }
        return labels
    }

    /// The smallest bucket holding 99 % of the answers since `before`, with the shares of the
    /// buckets up to 50 ms: `p99 ≤ 10 ms (≤ 2 ms 41 %, ≤ 5 ms 93 %, …)`.
    func serverShare(since before: RealtimeMetrics) -> String {
        let bounds = buckets.keys.filter(\.isFinite).sorted()
        let total = (buckets[.infinity] ?? 0) - (before.buckets[.infinity] ?? 0)
        guard total > 0 else { return "no answers counted" }
        let shares = bounds.map { bound in
            (bound, Double((buckets[bound] ?? 0) - (before.buckets[bound] ?? 0)) / Double(total))
        }
        let p99 = shares.first { $0.1 >= 0.99 }.map { String(format: "p99 ≤ %.0f ms", $0.0 * 1000) } ?? "p99 above 1 s"
        let listed = shares.filter { $0.0 <= 0.050 }.map { String(format: "≤ %.0f ms %.1f %%", $0.0 * 1000, $0.1 * 100) }
        return p99 + " (" + listed.joined(separator: ", ") + ")"
    }
}

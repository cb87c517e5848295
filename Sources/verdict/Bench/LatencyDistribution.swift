import Foundation

/// The latencies of many requests, sorted, with the percentiles a benchmark prints.
struct LatencyDistribution {
    /// Every sample in seconds, ascending.
    let sorted: [Double]

    init(seconds samples: [Double]) {
        sorted = samples.sorted()
    }

    /// The nearest-rank percentile (`fraction` 0.5 for p50, 0.99 for p99), in seconds; 0 without samples.
    func percentile(_ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    var maximum: Double { sorted.last ?? 0 }

    /// `p50 4.1 ms, p90 7.9 ms, p99 15.2 ms, max 40.3 ms`.
    var summary: String {
        let parts = [("p50", percentile(0.50)), ("p90", percentile(0.90)), ("p99", percentile(0.99)), ("max", maximum)]
        return parts.map { String(format: "%@ %.1f ms", $0.0, $0.1 * 1000) }.joined(separator: ", ")
    }
}

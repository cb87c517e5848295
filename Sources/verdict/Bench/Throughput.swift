import Foundation

/// Runs a workload once on one thread and once spread over every core, and prints operations per second.
struct Throughput {
    /// What one operation is called in the output ("notifications", "signatures").
    let unit: String
    /// Operations per run.
    let count: Int

    /// The figures of one measurement.
    struct Figure {
        let label: String
        let operations: Int
        let seconds: Double
        var perSecond: Double { Double(operations) / seconds }
    }

    /// Measures `operation(i)` for `i` in `0..<count`: first sequentially, then over all cores.
    func measure(_ label: String, _ operation: @escaping @Sendable (Int) async throws -> Void) async throws -> [Figure] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        let single = try await time(label: "\(label), 1 thread") {
            for index in 0..<count { try await operation(index) }
        }
        let parallel = try await time(label: "\(label), \(cores) cores") {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<cores {
                    group.addTask {
                        for index in stride(from: worker, to: count, by: cores) { try await operation(index) }
                    }
                }
                try await group.waitForAll()
            }
        }
        return [single, parallel]
    }

    private func time(label: String, _ body: () async throws -> Void) async throws -> Figure {
        let clock = ContinuousClock()
        let seconds = try await clock.measure { try await body() }.seconds
        let figure = Figure(label: label, operations: count, seconds: seconds)
        print(String(format: "%@: %d %@ in %.3f s = %.0f %@/s", label, count, unit, seconds, figure.perSecond, unit))
        return figure
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number (for printing figures).
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}

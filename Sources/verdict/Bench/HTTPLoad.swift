import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// POSTs prepared JSON bodies to one URL from `concurrency` workers (one keep-alive connection
/// each), timing every request from send to the last byte of the answer.
struct HTTPLoad {
    let url: String
    let concurrency: Int
    /// Per request, connect included.
    var timeout: TimeAmount = .seconds(30)

    /// What a run produced.
    struct Result {
        /// Latency of every request (answered or not), in seconds.
        var latencies: [Double] = []
        /// Requests by outcome: the HTTP status code ("200", "503") or "transport error".
        var outcomes: [String: Int] = [:]
        /// Requests answered with a 2xx status.
        var succeeded = 0
        /// Up to five distinct failure descriptions, for the report.
        var failureSamples: [String] = []
        /// Wall time of the whole run, in seconds.
        var seconds: Double = 0

        var failed: Int { latencies.count - succeeded }

        mutating func merge(_ other: Result) {
            latencies += other.latencies
            outcomes.merge(other.outcomes, uniquingKeysWith: +)
            succeeded += other.succeeded
            for sample in other.failureSamples where failureSamples.count < 5 && !failureSamples.contains(sample) {
                failureSamples.append(sample)
            }
        }
    }

    /// An HTTP client whose pool opens one connection per worker.
    func makeClient() -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: concurrency)
        configuration.timeout = .init(connect: .seconds(5), read: timeout)
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    /// Sends every body once; workers take the next unsent body until none is left.
    func run(bodies: [ByteBuffer], client: HTTPClient) async -> Result {
        let next = NextIndex()
        let clock = ContinuousClock()
        let start = clock.now
        var total = await withTaskGroup(of: Result.self) { group in
            for _ in 0..<concurrency {
                group.addTask {
                    var result = Result()
                    result.latencies.reserveCapacity(bodies.count / concurrency + 1)
                    while true {
                        let index = next.take()
                        guard index < bodies.count else { break }
                        await send(bodies[index], client: client, clock: clock, into: &result)
                    }
                    return result
                }
            }
            var total = Result()
            for await result in group { total.merge(result) }
            return total
        }
        total.seconds = (clock.now - start).seconds
        return total
    }

    private func send(_ body: ByteBuffer, client: HTTPClient, clock: ContinuousClock, into result: inout Result) async {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.body = .bytes(body)
        let start = clock.now
        let outcome: String
        var failure: String?
        do {
            let response = try await client.execute(request, timeout: timeout)
            let answer = try await response.body.collect(upTo: 1 << 20)
            outcome = String(response.status.code)
            if (200..<300).contains(response.status.code) {
                result.succeeded += 1
            } else {
                failure = "\(response.status.code): \(String(buffer: answer).prefix(300))"
            }
        } catch {
            outcome = "transport error"
            failure = "transport error: \(error)"
        }
        result.latencies.append((clock.now - start).seconds)
        result.outcomes[outcome, default: 0] += 1
        if let failure, result.failureSamples.count < 5, !result.failureSamples.contains(failure) {
            result.failureSamples.append(failure)
        }
    }
}

/// The index of the next body to send, shared by the workers.
private final class NextIndex: Sendable {
    private let value = Atomic<Int>(0)

    func take() -> Int {
        value.wrappingAdd(1, ordering: .relaxed).oldValue
    }
}

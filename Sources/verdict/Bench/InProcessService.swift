import Logging
import ServiceLifecycle
import VerdictService

/// A Verdict service started in this process, on a free loopback port, for a benchmark to call
/// over real HTTP; ``stop()`` shuts it down gracefully.
struct InProcessService {
    let service: VerdictServer
    /// `http://127.0.0.1:<port>`.
    let baseURL: String
    private let group: ServiceGroup
    private let running: Task<Void, any Error>

    /// Opens the service configured by `environment` (`VERDICT_*` settings) and waits until it listens.
    static func start(environment: [String: String], logger: Logger) async throws -> InProcessService {
        let configuration = try ServiceConfiguration(reader: try await ConfigurationSources.reader(environment: environment))
        let service = try await VerdictServer.open(configuration: configuration, logger: logger)
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [try service.makeApplication(port: 0) { continuation.yield($0) }], logger: logger))
        let running = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        for await port in ports {
            return InProcessService(service: service, baseURL: "http://127.0.0.1:\(port)", group: group, running: running)
        }
        _ = try await running.value
        throw BenchFailure("the service stopped before it listened")
    }

    func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await running.value
    }
}

/// A benchmark that could not run, and why.
struct BenchFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

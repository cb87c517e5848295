import Hummingbird

/// A Hummingbird application running in-process on 127.0.0.1 and an ephemeral port, with bounded
/// start and stop: an application that does not start or stop in time fails the test.
struct RunningApplication: Sendable {
    let port: Int
    let task: Task<Void, any Error>

    /// Builds the application with the callback it must call with its bound port, runs it, and
    /// waits (30 s at most) for the port.
    static func start<App: ApplicationProtocol>(
        _ make: (_ onServerRunning: @escaping @Sendable (Int) async -> Void) throws -> App
    ) async throws -> RunningApplication {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let application = try make { port in continuation.yield(port) }
        let running = Task {
            // The stream ends without a port when the application fails to start.
            defer { continuation.finish() }
            try await application.run()
        }
        let startTimer = Task {
            try await Task.sleep(for: .seconds(30))
            continuation.finish()
        }
        defer { startTimer.cancel() }
        for await port in ports {
            return RunningApplication(port: port, task: running)
        }
        running.cancel()
        _ = try await value(of: running, within: .seconds(30), "the failed application's shutdown")
        throw ServiceTestError("the application did not start listening within 30 s")
    }

    /// Cancels the application and waits (30 s at most) for it to stop.
    func stop(_ what: String) async throws {
        task.cancel()
        do {
            _ = try await value(of: task, within: .seconds(30), what)
        } catch let error as ServiceTestError {
            throw error
        } catch {}
    }
}

import Foundation
import Hummingbird
import Synchronization

/// A small in-test notification endpoint (Hummingbird): records every POST and answers with the
/// next scripted status (200 once the script is used up).
final class NotificationReceiver: Sendable {
    /// One request the receiver got.
    struct Received: Sendable {
        let contentType: String?
        let body: Data
    }

    private let state: Mutex<(script: [Int], received: [Received])>
    private let task = Mutex<Task<Void, any Error>?>(nil)

    init(statuses: [Int]) {
        state = Mutex((statuses, []))
    }

    var received: [Received] { state.withLock { $0.received } }

    /// Starts listening on 127.0.0.1 and returns the notification URL.
    func start() async throws -> URL {
        let router = Router()
        router.post("/notifications") { [self] request, _ -> Response in
            let buffer = try await request.body.collect(upTo: 1 << 20)
            let status = state.withLock { state -> Int in
                state.received.append(Received(contentType: request.headers[.contentType],
                                               body: Data(buffer.readableBytesView)))
                return state.script.isEmpty ? 200 : state.script.removeFirst()
            }
            return Response(status: .init(code: status))
        }
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        let application = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) })
        task.withLock { $0 = Task { try await application.run() } }
        for await port in stream {
            return URL(string: "http://127.0.0.1:\(port)/notifications")!
        }
        throw CancellationError()
    }

    func stop() async {
        let running = task.withLock { $0 }
        running?.cancel()
        _ = try? await running?.value
    }
}

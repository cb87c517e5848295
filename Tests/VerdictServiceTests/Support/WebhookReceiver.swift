import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// An app backend's webhook endpoint for tests: records every POST to `/hooks` (signature header,
/// delivery id, body) and answers 503 to the first `failFirst` of them, 200 afterwards.
final class WebhookReceiver: Sendable {
    struct Delivery: Sendable {
        var signature: String?
        var deliveryId: String?
        /// The `Verdict-App` header: the app whose event it is.
        var app: String?
        var body: String
        var answered: Int
    }

    private let state: Mutex<(deliveries: [Delivery], failuresLeft: Int)>

    init(failFirst: Int) {
        state = Mutex(([], failFirst))
    }

    var deliveries: [Delivery] { state.withLock { $0.deliveries } }

    /// Runs `body` with a receiver listening on 127.0.0.1; `url` is its `/hooks` endpoint.
    static func with<T: Sendable>(failFirst: Int, _ body: (WebhookReceiver, URL) async throws -> T) async throws -> T {
        let receiver = WebhookReceiver(failFirst: failFirst)
        let router = Router()
        router.post("/hooks") { request, _ -> HTTPResponse.Status in
            let buffer = try await request.body.collect(upTo: 1 << 20)
            return receiver.record(
                signature: request.headers[HTTPField.Name("Verdict-Signature")!],
                deliveryId: request.headers[HTTPField.Name("Verdict-Delivery")!],
                app: request.headers[HTTPField.Name("Verdict-App")!],
                body: String(buffer: buffer))
        }
        let running = try await RunningApplication.start { onServerRunning in
            Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { await onServerRunning($0.localAddress?.port ?? 0) })
        }
        do {
            let result = try await body(receiver, URL(string: "http://127.0.0.1:\(running.port)/hooks")!)
            try await running.stop("the webhook receiver's shutdown")
            return result
        } catch {
            try? await running.stop("the webhook receiver's shutdown")
            throw error
        }
    }

    private func record(signature: String?, deliveryId: String?, app: String?, body: String) -> HTTPResponse.Status {
        state.withLock { state in
            let status: HTTPResponse.Status = state.failuresLeft > 0 ? .serviceUnavailable : .ok
            if state.failuresLeft > 0 { state.failuresLeft -= 1 }
            state.deliveries.append(Delivery(signature: signature, deliveryId: deliveryId, app: app, body: body, answered: Int(status.code)))
            return status
        }
    }
}

import Hummingbird
import Synchronization

/// At most ``limit`` requests handled at once: one more is answered `503 OVERLOADED` with
/// `Retry-After: 1` at once, instead of queueing behind the others (Apple retries a notification
/// answered 5xx; an app backend sees a clear error). The liveness and readiness probes are never
/// refused, so an orchestrator does not restart a busy service.
struct ConcurrencyLimitMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext

    /// The requests in flight, shared by every copy of the middleware.
    final class Gauge: Sendable {
        private let value = Atomic<Int>(0)
        func enter() -> Int { value.wrappingAdd(1, ordering: .relaxed).newValue }
        func leave() { value.wrappingSubtract(1, ordering: .relaxed) }
    }

    static let exempt: Set<String> = ["/healthz", "/readyz"]

    let limit: Int
    let gauge = Gauge()

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if Self.exempt.contains(request.uri.path) { return try await next(request, context) }
        defer { gauge.leave() }
        guard gauge.enter() <= limit else {
            throw ServiceError(.serviceUnavailable, code: "OVERLOADED",
                               message: "the service is handling \(limit) requests at once; retry shortly",
                               headers: [.retryAfter: "1"])
        }
        return try await next(request, context)
    }
}

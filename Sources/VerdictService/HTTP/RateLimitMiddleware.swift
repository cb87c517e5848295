import Hummingbird

/// Per API token (its digest, never the token) at most ``RateLimiter/rate`` requests per second
/// on average and ``RateLimiter/burst`` at once: one more is answered `429 RATE_LIMITED` with
/// `Retry-After` in seconds. Runs after ``BearerTokenMiddleware``, so only the authenticated API
/// is limited — never Apple's notifications or realtime requests, which carry no token.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext

    let limiter: RateLimiter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let token = request.headers[.authorization].map { String($0.dropFirst(7)) } ?? ""
        // The token's digest, as console session ids are kept: the secret itself is never a key.
        try Self.take(limiter, key: "token:" + ConsoleSessions.digest(token))
        return try await next(request, context)
    }

    /// Takes a request for `key`, or throws the 429.
    static func take(_ limiter: RateLimiter, key: String) throws(ServiceError) {
        do {
            try limiter.take(key)
        } catch {
            throw ServiceError(.tooManyRequests, code: "RATE_LIMITED",
                               message: "more than \(Int(limiter.burst)) requests at once or \(limiter.rate) a second on average; retry after \(error.retryAfterSeconds) s",
                               headers: [.retryAfter: String(error.retryAfterSeconds)])
        }
    }
}

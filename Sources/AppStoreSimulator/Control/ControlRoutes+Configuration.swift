import AppStoreServer
import Foundation
import Hummingbird

/// Control routes that configure the simulator at runtime: delivery (per app), clock, token
/// clock, rate limits and faults (shared by the apps); documented in `ControlRoutes`.
extension ControlRoutes {
    func registerConfiguration(on router: Router<SimulatorRequestContext>) {
        registerDelivery(on: router)
        registerClock(on: router)
        registerRateLimits(on: router)
        registerFaults(on: router)
    }

    /// `GET|PUT /simulator/delivery[?bundleId=…]`: the selected app's delivery URL and retry policy.
    private func registerDelivery(on router: Router<SimulatorRequestContext>) {
        router.get("/simulator/delivery", use: forApp { app, _, _ in await deliveryState(app.deliverer) })
        router.put("/simulator/delivery", use: forApp { app, request, _ in
            try await run {
                let deliverer = app.deliverer
                let data = try await request.collectBody()
                let body: ControlMessages.Delivery = try await decode(request, data)
                if let object = JSONValue.parse(data)?.objectValue, let url = object["url"] {
                    if url == .null {
                        await deliverer.setDeliveryURL(nil)
                    } else {
                        guard let text = body.url, let parsed = URL(string: text), parsed.scheme?.hasPrefix("http") == true
                        else { throw SimulatorError.invalidRequest("url must be an http(s) URL") }
                        await deliverer.setDeliveryURL(parsed)
                    }
                }
                if let policy = body.retryPolicy { await deliverer.setRetryPolicy(policy) }
                return await deliveryState(deliverer)
            }
        })
    }

    private func deliveryState(_ deliverer: NotificationDeliverer) async -> Response {
        JSONResponse.make(ControlMessages.Delivery(
            url: await deliverer.deliveryURL?.absoluteString, retryPolicy: await deliverer.retryPolicy))
    }

    private func registerClock(on router: Router<SimulatorRequestContext>) {
        let clock = server.store.clock
        router.get("/simulator/clock") { _, _ in clockState() }
        router.put("/simulator/clock") { request, _ in
            try await run {
                let body: ControlMessages.Clock = try await decode(request)
                if let now = body.now { clock.freeze(at: now) }
                if body.frozen == false { clock.unfreeze() }
                if body.frozen == true, body.now == nil { clock.freeze(at: clock.now) }
                return clockState()
            }
        }
        router.post("/simulator/clock/advance") { request, _ in
            try await run {
                let body: ControlMessages.Advance = try await decode(request)
                clock.advance(by: body.seconds)
                return clockState()
            }
        }
        router.put("/simulator/token-clock") { request, _ in
            try await run {
                let body: ControlMessages.TokenClockSetting = try await decode(request)
                server.tokenClock = body.tokenClock
                return JSONResponse.make(body)
            }
        }
    }

    private func clockState() -> Response {
        JSONResponse.make(ControlMessages.Clock(now: server.store.clock.now, frozen: server.store.clock.isFrozen))
    }

    private func registerRateLimits(on router: Router<SimulatorRequestContext>) {
        let limiter = server.rateLimiter
        router.get("/simulator/rate-limits") { _, _ in rateLimitState() }
        router.put("/simulator/rate-limits/{endpoint}") { request, context in
            try await run {
                let endpoint = try endpoint(context)
                let object = JSONValue.parse(try await request.collectBody())?.objectValue ?? [:]
                guard let limit = object["limit"]?.integerValue, limit >= 0 else {
                    throw SimulatorError.invalidRequest("limit must be a non-negative integer")
                }
                let window = object["windowSeconds"].flatMap { value -> Double? in
                    if case .number(let seconds) = value { return seconds }
                    return value.integerValue.map(Double.init)
                } ?? 3600
                guard window > 0 else { throw SimulatorError.invalidRequest("windowSeconds must be positive") }
                limiter.setLimit(RateLimit(limit: Int(limit), windowSeconds: window), for: endpoint)
                return rateLimitState()
            }
        }
        router.delete("/simulator/rate-limits/{endpoint}") { _, context in
            try await run {
                limiter.setLimit(nil, for: try endpoint(context))
                return rateLimitState()
            }
        }
        router.delete("/simulator/rate-limits") { _, _ in
            limiter.removeAll()
            return rateLimitState()
        }
    }

    private func rateLimitState() -> Response {
        let limits = server.rateLimiter.limits
        return JSONResponse.make(Dictionary(uniqueKeysWithValues: limits.map { ($0.key.rawValue, $0.value) }))
    }

    private func endpoint(_ context: SimulatorRequestContext) throws -> SimulatorEndpoint {
        guard let name = context.parameters.get("endpoint"), let endpoint = SimulatorEndpoint(rawValue: name) else {
            throw SimulatorError.invalidRequest(
                "unknown endpoint; use one of \(SimulatorEndpoint.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return endpoint
    }

    private func registerFaults(on router: Router<SimulatorRequestContext>) {
        let faults = server.faults
        router.get("/simulator/faults") { _, _ in JSONResponse.make(faults.pending) }
        router.post("/simulator/faults") { request, _ in
            try await run {
                let data = try await request.collectBody()
                var fault: SimulatorFault = try await decode(request, data)
                if JSONValue.parse(data)?.objectValue?["count"] == nil { fault.count = 1 }
                switch fault.kind {
                case .error where fault.status == nil:
                    throw SimulatorError.invalidRequest("an error fault needs a status")
                case .latency where (fault.latencyMilliseconds ?? 0) <= 0:
                    throw SimulatorError.invalidRequest("a latency fault needs latencyMilliseconds > 0")
                default: break
                }
                faults.add(fault)
                return JSONResponse.make(faults.pending)
            }
        }
        router.delete("/simulator/faults") { _, _ in
            faults.removeAll()
            return JSONResponse.make(faults.pending)
        }
    }

    /// Decodes an already collected body.
    func decode<Body: Decodable>(_ request: Request, _ data: Data) async throws -> Body {
        do {
            return try AppStoreJSON.decoder().decode(Body.self, from: data.isEmpty ? Data("{}".utf8) : data)
        } catch {
            throw SimulatorError.invalidRequest("the body is not valid \(Body.self) JSON: \(error)")
        }
    }
}

import HTTPTypes
import Hummingbird
import OTelSemanticConventions
import Tracing
import VerdictStorage

/// A server span per HTTP request, named by its route (`POST /v1/notifications`). Its attributes
/// follow OpenTelemetry's HTTP conventions but never carry the request's path, query or headers:
/// paths hold customers' appAccountTokens, queries and headers hold tokens.
///
/// Every request starts a trace of its own: a caller's `traceparent` (anyone on the internet can
/// send one to Apple's routes) is recorded as a link, never continued, so no caller chooses the
/// service's trace ids or its sampling.
///
/// It runs first, so every log line written while handling the request (the request log line too)
/// is written inside the span and carries its ids.
struct RequestTracingMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let span = startSpan("HTTP \(request.method.rawValue)", context: .topLevel, ofKind: .server)
        if span.isRecording {
            span.attributes.http.request.method = .init(rawValue: request.method.rawValue)
            // Only the trace headers are handed over: a tracer that cannot parse them may log the
            // carrier, and the request's other headers hold tokens and session cookies.
            let values = request.headers[values: .traceparent]
            if values.count == 1 {
                span.addLink(SpanLink(
                    context: TraceParent.context(values[0], state: request.headers[.tracestate]), attributes: [:]))
            }
        }
        do {
            let response = try await ServiceContext.$current.withValue(span.context) {
                try await TraceRecording.within(span) { try await next(request, context) }
            }
            // The body is written after the span ends (the service's answers are small buffers).
            finish(span, route: context.endpointPath, method: request.method, status: Int(response.status.code))
            return response
        } catch {
            finish(span, route: context.endpointPath, method: request.method,
                   status: Int((error as? any HTTPResponseError)?.status.code ?? 500))
            throw error
        }
    }

    private func finish(_ span: any Span, route: String?, method: HTTPRequest.Method, status: Int) {
        if span.isRecording {
            if let route {
                span.operationName = "\(method.rawValue) \(route)"
                span.attributes.http.route = route
            }
            span.attributes.http.response.statusCode = status
            if status >= 500 { span.setStatus(SpanStatus(code: .error)) }
        }
        span.end()
    }
}

extension HTTPField.Name {
    static let traceparent = Self("traceparent")!
    static let tracestate = Self("tracestate")!
}

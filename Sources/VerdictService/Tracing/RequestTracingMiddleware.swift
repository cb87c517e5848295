import HTTPTypes
import Hummingbird
import Instrumentation
import Tracing

/// A server span per HTTP request, named by its route (`POST /v1/notifications`), continuing the
/// caller's trace when it sends a `traceparent`. Its attributes follow OpenTelemetry's HTTP
/// conventions but never carry the request's path, query or headers: paths hold customers'
/// appAccountTokens, queries and headers hold tokens.
///
/// It runs first, so every log line written while handling the request (the request log line too)
/// is written inside the span and carries its ids.
struct RequestTracingMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var parent = ServiceContext.current ?? .topLevel
        InstrumentationSystem.instrument.extract(request.headers, into: &parent, using: HeaderExtractor())
        let span = startSpan("HTTP \(request.method.rawValue)", context: parent, ofKind: .server)
        span.attributes["http.request.method"] = request.method.rawValue
        do {
            let response = try await ServiceContext.$current.withValue(span.context) {
                try await next(request, context)
            }
            // The body is written after the span ends (the service's answers are small buffers).
            finish(span, route: context.endpointPath, method: request.method, status: Int(response.status.code))
            span.end()
            return response
        } catch {
            let status = Int((error as? any HTTPResponseError)?.status.code ?? 500)
            finish(span, route: context.endpointPath, method: request.method, status: status)
            if status >= 500 { span.setStatus(SpanStatus(code: .error)) }
            span.end()
            throw error
        }
    }

    private func finish(_ span: any Span, route: String?, method: HTTPRequest.Method, status: Int) {
        if let route {
            span.operationName = "\(method.rawValue) \(route)"
            span.attributes["http.route"] = route
        }
        span.attributes["http.response.status_code"] = status
    }

    private struct HeaderExtractor: Extractor {
        func extract(key: String, from headers: HTTPFields) -> String? {
            HTTPField.Name(key).flatMap { headers[$0] }
        }
    }
}

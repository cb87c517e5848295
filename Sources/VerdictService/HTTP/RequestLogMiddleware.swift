import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Gives each request an id (the caller's `X-Request-Id` when it is short and plain, else a new
/// UUID), echoes it in the response, puts it on the request's logger, and logs one line per request:
/// method, path (without the query), status and duration. Never headers or bodies.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        let supplied = request.headers[.xRequestID]
        let id = supplied.flatMap { Self.isPlain($0) ? $0 : nil } ?? UUID().uuidString.lowercased()
        context.requestId = id
        context.logger[metadataKey: "request_id"] = .string(id)
        let start = ContinuousClock.now
        do {
            var response = try await next(request, context)
            response.headers[.xRequestID] = id
            log(request, status: response.status.code, start: start, logger: context.logger)
            return response
        } catch let error as HTTPResponseError {
            log(request, status: error.status.code, start: start, logger: context.logger)
            var headers = (error as? ServiceError)?.headers ?? [:]
            headers[.xRequestID] = id
            if var serviceError = error as? ServiceError {
                serviceError.headers = headers
                throw serviceError
            }
            throw error
        }
    }

    private func log(_ request: Request, status: Int, start: ContinuousClock.Instant, logger: Logger) {
        let elapsed = ContinuousClock.now - start
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        logger.info("request", metadata: [
            "method": .string(request.method.rawValue),
            "path": .string(request.uri.path),
            "status": .stringConvertible(status),
            "duration_ms": .string(String(format: "%.2f", milliseconds)),
        ])
    }

    static func isPlain(_ id: String) -> Bool {
        id.count <= 64 && !id.isEmpty && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}

extension HTTPField.Name {
    static let xRequestID = Self("X-Request-Id")!
}

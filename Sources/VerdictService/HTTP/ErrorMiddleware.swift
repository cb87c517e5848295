import Hummingbird
import Logging
import VerdictRequests
import VerdictStorage

/// Turns every error into Verdict's JSON error shape: ``ServiceError`` and ``CandidateRefusal``
/// (the same shape with the candidate's positioned errors) as they are, a refused request body
/// (`RequestBodyError`) with its 400 or 422, Hummingbird's
/// `HTTPError` (unknown route…) with a code derived from its status — a method a known path does
/// not serve, whatever the method, is 405 with `Allow` (``MethodNotAllowed``) —, a
/// database that does not answer into 503 `UNAVAILABLE` with `Retry-After`, and any other error
/// into a 500 whose message hides the internals (the log has them, by request id).
struct ErrorMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext
    /// Turns the router's 404 for a known path into 405 with `Allow`.
    let methods: MethodNotAllowed

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ServiceError {
            throw error
        } catch let error as CandidateRefusal {
            throw error
        } catch let error as RequestBodyError {
            throw ServiceError(error)
        } catch let error as StorageError where error.isUnavailable {
            // Down, unreachable, or slower than VERDICT_DATABASE_TIMEOUT: the caller may try again.
            // The reason stays in the log; it can name the database's host.
            context.logger.warning("database unavailable", metadata: ["error": "\(error)"])
            throw ServiceError.unavailable("UNAVAILABLE", "the database did not answer; try again later")
        } catch let error as HTTPError {
            if error.status == .notFound, let allow = methods.allow(for: request.uri.path) {
                throw ServiceError(
                    .methodNotAllowed, code: "METHOD_NOT_ALLOWED",
                    message: "\(request.method.rawValue) is not served here (allowed: \(allow))", headers: [.allow: allow])
            }
            throw ServiceError(error.status, code: Self.code(for: error.status), message: error.body ?? error.status.reasonPhrase)
        } catch {
            context.logger.error("unhandled error", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            throw ServiceError(.internalServerError, code: "INTERNAL", message: "internal error (request \(context.requestId))")
        }
    }

    static func code(for status: HTTPResponse.Status) -> String {
        switch status.code {
        case 404: "NOT_FOUND"
        case 405: "METHOD_NOT_ALLOWED"
        case 413: "PAYLOAD_TOO_LARGE"
        case 415: "UNSUPPORTED_MEDIA_TYPE"
        case 401: "UNAUTHORIZED"
        case 400..<500: "BAD_REQUEST"
        default: "INTERNAL"
        }
    }
}

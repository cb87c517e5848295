import Hummingbird

/// Requires `Authorization: Bearer <token>` with one of the configured tokens (401 otherwise),
/// then that the token's role reaches the endpoint (``AccessPolicy``; 403 `FORBIDDEN` otherwise).
/// Tokens are looked up in constant time (``TokenDirectory``), and no configured token means every
/// request is refused.
struct BearerTokenMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext

    let tokens: TokenDirectory

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization], header.count > 7,
              header.prefix(7).lowercased() == "bearer ", let role = tokens.role(of: String(header.dropFirst(7)))
        else {
            throw ServiceError.unauthorized
        }
        let operation = "\(request.method.rawValue) \(context.endpointPath ?? request.uri.path)"
        guard AccessPolicy.roles(for: operation).contains(role) else {
            throw ServiceError(.forbidden, code: "FORBIDDEN", message: "a \(role.rawValue) token cannot use \(operation)")
        }
        var context = context
        context.role = role
        return try await next(request, context)
    }
}

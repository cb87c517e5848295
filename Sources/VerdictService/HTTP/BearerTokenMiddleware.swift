import Hummingbird

/// Requires `Authorization: Bearer <token>` with one of the configured tokens (401 otherwise),
/// then that the token's role reaches the endpoint (``AccessPolicy``; 403 `FORBIDDEN` otherwise),
/// and gives the request the apps it may act for (``RequestApps``): the token's apps, or the one a
/// `Verdict-App` header names among them. A header naming an app the token does not act for (or
/// no configured app) answers 404, as another app's resource does. Tokens are looked up in
/// constant time (``TokenDirectory``), and no configured token means every request is refused.
struct BearerTokenMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext

    let tokens: TokenDirectory
    let apps: AppDirectory

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization], header.count > 7,
              header.prefix(7).lowercased() == "bearer ", let grant = tokens.grant(of: String(header.dropFirst(7)))
        else {
            throw ServiceError.unauthorized
        }
        let operation = "\(request.method.rawValue) \(context.endpointPath ?? request.uri.path)"
        guard AccessPolicy.roles(for: operation).contains(grant.role) else {
            throw ServiceError(.forbidden, code: "FORBIDDEN", message: "a \(grant.role.rawValue) token cannot use \(operation)")
        }
        var context = context
        context.role = grant.role
        context.requestApps = try RequestApps(apps, grant: grant.apps, named: request.headers[RequestApps.headerName])
        return try await next(request, context)
    }
}

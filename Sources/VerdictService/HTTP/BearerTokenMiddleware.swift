import Crypto
import Foundation
import Hummingbird

/// Requires `Authorization: Bearer <token>` with one of the configured tokens (401 otherwise),
/// then that the token's role reaches the endpoint (``AccessPolicy``; 403 `FORBIDDEN` otherwise).
/// Tokens are compared in constant time (SHA-256 digests of equal length, compared without early
/// exit, every configured token examined), and no configured token means every request is refused.
struct BearerTokenMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext

    private let digests: [(digest: SHA256Digest, role: APIToken.Role)]

    init(tokens: [APIToken]) {
        self.digests = tokens.map { (SHA256.hash(data: Data($0.token.utf8)), $0.role) }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization], header.count > 7,
              header.prefix(7).lowercased() == "bearer ", let role = role(of: String(header.dropFirst(7)))
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

    /// The role of `token` when it is configured; examines every configured token whatever matches.
    func role(of token: String) -> APIToken.Role? {
        let presented = SHA256.hash(data: Data(token.utf8))
        var matched: APIToken.Role?
        for (digest, role) in digests {
            var difference: UInt8 = 0
            for (a, b) in zip(digest, presented) { difference |= a ^ b }
            if difference == 0, matched == nil { matched = role }
        }
        return matched
    }
}

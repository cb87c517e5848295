import Crypto
import Foundation
import Hummingbird

/// Requires `Authorization: Bearer <token>` with one of the configured tokens. Tokens are compared
/// in constant time (SHA-256 digests of equal length, compared without early exit), and no
/// configured token means every request is refused.
struct BearerTokenMiddleware: RouterMiddleware {
    typealias Context = ServiceRequestContext

    private let digests: [SHA256Digest]

    init(tokens: [String]) {
        self.digests = tokens.map { SHA256.hash(data: Data($0.utf8)) }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let header = request.headers[.authorization], header.count > 7,
              header.prefix(7).lowercased() == "bearer ", isValid(String(header.dropFirst(7)))
        else {
            throw ServiceError.unauthorized
        }
        return try await next(request, context)
    }

    /// Whether `token` is configured; examines every configured token whatever matches.
    func isValid(_ token: String) -> Bool {
        let presented = SHA256.hash(data: Data(token.utf8))
        var matched = false
        for digest in digests {
            var difference: UInt8 = 0
            for (a, b) in zip(digest, presented) { difference |= a ^ b }
            matched = matched || difference == 0
        }
        return matched
    }
}

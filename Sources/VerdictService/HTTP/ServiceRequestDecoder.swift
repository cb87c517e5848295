import Foundation
import Hummingbird
import VerdictRequests

/// Decodes JSON request bodies for `request.decode(as:context:)`: a JSON content type (415) and the
/// body's size limit (413), then `JSONRequestBody.decoded(from:)` — no repeated member names, the
/// body type's own decoding and checks —, whose refusal is answered as a ``ServiceError``.
public struct ServiceRequestDecoder: RequestDecoder {
    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        // Every body a route decodes is one of the API's; anything else is a programming error,
        // answered 500 rather than ending the process.
        guard let body = T.self as? any JSONRequestBody.Type else { throw Self.notABody(T.self) }
        let data = try await JSONBody.collect(request, limit: body.maximumBytes)
        let value: any JSONRequestBody
        do {
            value = try body.decoded(from: data)
        } catch {
            throw ServiceError(error)
        }
        guard let typed = value as? T else { throw Self.notABody(T.self) }
        return typed
    }

    /// The 500 for a type that is not one of the API's bodies.
    private static func notABody(_ type: Any.Type) -> ServiceError {
        ServiceError(.internalServerError, code: "INTERNAL", message: "\(type) is not a request body of this API")
    }
}

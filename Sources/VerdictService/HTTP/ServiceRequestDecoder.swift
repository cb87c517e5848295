import Foundation
import Hummingbird
import VerdictRequests

/// Decodes JSON request bodies for `request.decode(as:context:)`: a JSON content type (415) and the
/// body's size limit (413), then `JSONRequestBody.decoded(from:)` — no repeated member names, the
/// body type's own decoding and checks —, whose refusal is answered as a ``ServiceError``.
public struct ServiceRequestDecoder: RequestDecoder {
    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        guard let body = T.self as? any JSONRequestBody.Type else {
            preconditionFailure("\(T.self) is decoded from a request but is not a JSONRequestBody")
        }
        let data = try await JSONBody.collect(request, limit: body.maximumBytes)
        do {
            guard let value = try body.decoded(from: data) as? T else { preconditionFailure("\(body) is \(T.self)") }
            return value
        } catch {
            throw ServiceError(error)
        }
    }
}

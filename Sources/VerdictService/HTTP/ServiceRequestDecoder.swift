import Foundation
import Hummingbird

/// Decodes JSON request bodies for `request.decode(as:context:)`: a JSON content type (415), the
/// body's size limit (413), no repeated member names (400 `DUPLICATE_KEY`), then the body type's
/// own decoding. A ``ServiceError`` thrown while decoding (a field's own check) reaches the caller
/// as it is; any other decoding failure is 400 `MALFORMED_JSON` naming what was expected.
public struct ServiceRequestDecoder: RequestDecoder {
    public func decode<T: Decodable>(_ type: T.Type, from request: Request, context: some RequestContext) async throws -> T {
        let body = T.self as? any RequestBody.Type
        let data = try await JSONBody.collect(request, limit: body?.maximumBytes ?? 16 * 1024)
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as ServiceError {
            throw error
        } catch {
            throw ServiceError.badRequest("MALFORMED_JSON", "the body is not \(body?.expected ?? "JSON")")
        }
    }
}

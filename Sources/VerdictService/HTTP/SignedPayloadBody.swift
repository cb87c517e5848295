import AppStoreServer
import Foundation
import Hummingbird

/// Apple's `{"signedPayload": "…"}` bodies (notifications, realtime requests): collected within
/// `limit` bytes as JSON, the compact JWS taken out; anything else refused with the usual 4xx.
enum SignedPayloadBody {
    static func read(_ request: Request, limit: Int) async throws -> String {
        let body = try await JSONBody.collect(request, limit: limit)
        do {
            return try NotificationEnvelope.signedPayload(in: body)
        } catch .malformed {
            throw ServiceError.badRequest("MALFORMED_JSON", "the body is not a JSON object like {\"signedPayload\": \"…\"}")
        } catch .missingSignedPayload {
            throw ServiceError.badRequest("MISSING_FIELD", "the body has no signedPayload string")
        } catch .duplicateKey(let name) {
            throw ServiceError.duplicateKey(name)
        }
    }
}

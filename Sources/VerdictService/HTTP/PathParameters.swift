import Foundation
import Hummingbird

/// The API's path parameters, each with one meaning and one check (400 `INVALID_PARAMETER`):
/// `/v1/customers/{appAccountToken}/…`, `/v1/subscriptions/{originalTransactionId}/…` and
/// `/v1/transactions/{transactionId}/…`.
extension ServiceRequestContext {
    /// The path's appAccountToken, lowercased (a UUID).
    func appAccountToken() throws -> String {
        let text = try parameters.require("appAccountToken")
        guard let uuid = UUID(uuidString: text) else {
            throw ServiceError.badRequest("INVALID_PARAMETER", "appAccountToken must be a UUID")
        }
        return uuid.uuidString.lowercased()
    }

    /// The path's originalTransactionId: 1–64 ASCII letters and digits (Apple's are digits).
    func originalTransactionId() throws -> String {
        let text = try parameters.require("originalTransactionId")
        guard (1...64).contains(text.utf8.count), text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw ServiceError.badRequest("INVALID_PARAMETER", "originalTransactionId must be 1 to 64 letters and digits")
        }
        return text
    }

    /// The path's transaction id: Apple's decimal transaction id.
    func transactionId() throws -> String {
        let id = try parameters.require("transactionId")
        guard !id.isEmpty, id.count <= 32, id.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw ServiceError.badRequest("INVALID_PARAMETER", "transactionId must be Apple's decimal transaction id")
        }
        return id
    }
}

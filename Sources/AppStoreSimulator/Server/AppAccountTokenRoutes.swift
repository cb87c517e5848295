import AppStoreServer
import Foundation
import Hummingbird

/// Set App Account Token.
extension APIRoutes {
    /// `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken` with
    /// `{"appAccountToken": "<UUID>"}`: every transaction of the purchase gets the token (re-signed,
    /// so history serves them again), and so do its later renewals and its renewal info. Answers
    /// 200 with an empty body; 4000183 for a body without a UUID, 4000048 for an app transaction
    /// id, 4040010 for an unknown id, 4000187 for an id that is not an original transaction id,
    /// 4000185 for a Family Sharing purchase, 4000227 for a group member's `ASSIGNED` one.
    func setAppAccountToken(_ request: Request, _ context: SimulatorRequestContext) async throws -> Response {
        let id = try pathTransactionId(context)
        let body = try await request.collectBody()
        guard let text = JSONValue.parse(body)?.objectValue?["appAccountToken"]?.stringValue,
              let token = UUID(uuidString: text)
        else { throw APIErrorResponse.invalidAppAccountTokenUUID }
        switch await store.lookUp(id) {
        case .transaction(let transaction):
            guard transaction.originalTransactionId == id else {
                throw APIErrorResponse.transactionIdIsNotOriginalTransactionId
            }
            try rejectUnsupportedOwnership(transaction)
        case .appTransaction: throw APIErrorResponse.appTransactionIdNotSupported
        case .unknown: throw APIErrorResponse.transactionIdNotFound
        }
        try await store.setAppAccountToken(token, originalTransactionId: id)
        return Response(status: .ok)
    }
}

extension SimulatorStore {
    /// Gives every transaction of the purchase `originalTransactionId` the app account token
    /// `token`, and its subscription (if any), whose renewals and renewal info then carry it.
    /// A subscription's transactions are its record's, oldest first; a one-time purchase is its
    /// own original transaction.
    func setAppAccountToken(_ token: UUID, originalTransactionId: String) throws {
        let ids = subscriptions[originalTransactionId]?.transactionIds
            ?? (transactions[originalTransactionId]?.payload.originalTransactionId == originalTransactionId
                ? [originalTransactionId] : [])
        for id in ids { try modifyTransaction(id) { $0.appAccountToken = token } }
        subscriptions[originalTransactionId]?.appAccountToken = token
    }
}

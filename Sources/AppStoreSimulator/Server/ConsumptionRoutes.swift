import AppStoreServer
import Foundation
import Hummingbird

/// Send Consumption Information (V2).
extension APIRoutes {
    /// `PUT /inApps/v2/transactions/consumption/{transactionId}`: validates the body
    /// (``ConsumptionValidator``), records it for tests to read and answers 202 with no body.
    func sendConsumptionInformation(_ request: Request, _ context: SimulatorRequestContext) async throws -> Response {
        let id = try pathTransactionId(context)
        let transaction: JWSTransactionDecodedPayload
        switch await store.lookUp(id) {
        case .transaction(let found): transaction = found
        case .appTransaction: throw APIErrorResponse.appTransactionIdNotSupported
        case .unknown: throw APIErrorResponse.transactionIdNotFound
        }
        if transaction.inAppOwnershipType == .familyShared {
            throw APIErrorResponse.familyTransactionNotSupported
        }
        let body = try await request.collectBody()
        switch ConsumptionValidator(productType: transaction.type).validate(body) {
        case .failure(let error):
            throw error
        case .success(let consumption):
            await store.recordConsumption(ReceivedConsumptionInformation(
                transactionId: id, request: consumption, rawBody: String(decoding: body, as: UTF8.self),
                receivedDate: store.now))
            return Response(status: .accepted)
        }
    }
}

import AppStoreServer
import Foundation
import Hummingbird

/// Send Consumption Information (V2).
extension APIRoutes {
    /// `PUT /inApps/v2/transactions/consumption/{transactionId}`: validates the path and the body
    /// (``ConsumptionValidator``), records an accepted body for tests to read and answers 202 with
    /// no body; a rejected one is recorded with the Apple error it was answered with.
    func sendConsumptionInformation(_ request: Request, _ context: SimulatorRequestContext) async throws -> Response {
        let body = try await request.collectBody()
        do {
            let (id, consumption) = try await acceptConsumption(body, context)
            await store.recordConsumption(ReceivedConsumptionInformation(
                transactionId: id, request: consumption, rawBody: String(decoding: body, as: UTF8.self),
                receivedDate: store.now))
            return Response(status: .accepted)
        } catch let error as APIErrorResponse {
            await store.recordRejectedConsumption(RejectedConsumptionInformation(
                transactionId: context.parameters.get("transactionId") ?? "",
                rawBody: String(decoding: body, as: UTF8.self), httpStatus: error.status, errorCode: error.errorCode,
                errorMessage: error.errorMessage, receivedDate: store.now))
            throw error
        }
    }

    /// The path's transaction id and the decoded body, or the Apple error answering them.
    private func acceptConsumption(
        _ body: Data, _ context: SimulatorRequestContext
    ) async throws -> (String, ConsumptionRequest) {
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
        switch ConsumptionValidator(productType: transaction.type).validate(body) {
        case .failure(let error): throw error
        case .success(let consumption): return (id, consumption)
        }
    }
}

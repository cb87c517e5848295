import AppStoreServer
import Foundation
import Hummingbird

/// Send Consumption Information (V2, and the V1 that Advanced Commerce purchases still use).
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

    /// `PUT /inApps/v1/transactions/consumption/{transactionId}`: the path is checked as for V2,
    /// the body against the V1 rules (``ConsumptionV1Validator``); an accepted body is recorded
    /// (``SimulatorStore/receivedConsumptionInformationV1()``) and answered 202 with no body.
    /// Rejections are only answered, not recorded.
    func sendConsumptionInformationV1(_ request: Request, _ context: SimulatorRequestContext) async throws -> Response {
        let body = try await request.collectBody()
        let (id, _) = try await consumptionTransaction(context)
        if let error = ConsumptionV1Validator().validate(body) { throw error }
        await store.recordConsumptionV1(ReceivedConsumptionInformationV1(
            transactionId: id, rawBody: String(decoding: body, as: UTF8.self), receivedDate: store.now))
        return Response(status: .accepted)
    }

    /// The path's transaction id and the decoded body, or the Apple error answering them.
    private func acceptConsumption(
        _ body: Data, _ context: SimulatorRequestContext
    ) async throws -> (String, ConsumptionRequest) {
        let (id, transaction) = try await consumptionTransaction(context)
        switch ConsumptionValidator(productType: transaction.type).validate(body) {
        case .failure(let error): throw error
        case .success(let consumption): return (id, consumption)
        }
    }

    /// The transaction the path names, when consumption information may be sent for it: not an
    /// app transaction id (4000048), known (4040010), not obtained through Family Sharing
    /// (4000185), and not a group member's `ASSIGNED` transaction (4000227).
    private func consumptionTransaction(
        _ context: SimulatorRequestContext
    ) async throws -> (String, JWSTransactionDecodedPayload) {
        let id = try pathTransactionId(context)
        switch await store.lookUp(id) {
        case .transaction(let transaction):
            try rejectUnsupportedOwnership(transaction)
            return (id, transaction)
        case .appTransaction: throw APIErrorResponse.appTransactionIdNotSupported
        case .unknown: throw APIErrorResponse.transactionIdNotFound
        }
    }

    /// Refuses a transaction obtained through Family Sharing (4000185) or a group member's
    /// `ASSIGNED` transaction (4000227), which consumption information and app account tokens
    /// cannot be sent for.
    func rejectUnsupportedOwnership(_ transaction: JWSTransactionDecodedPayload) throws {
        if transaction.inAppOwnershipType == .familyShared { throw APIErrorResponse.familyTransactionNotSupported }
        if transaction.inAppOwnershipType == .assigned { throw APIErrorResponse.assignedTransactionNotSupported }
    }
}

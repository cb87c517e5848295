import AppStoreServer
import Foundation
import Hummingbird

/// Get Transaction Info, Get Transaction History (v2), Get All Subscription Statuses and
/// Get Refund History (v2).
extension APIRoutes {
    /// `GET /inApps/v1/transactions/{transactionId}` → `TransactionInfoResponse`.
    func getTransactionInfo(_ request: Request, _ context: SimulatorRequestContext) async throws -> Response {
        let id = try pathTransactionId(context)
        switch await store.lookUp(id) {
        case .transaction:
            let signed = try await store.signedTransaction(id)
            return JSONResponse.make(TransactionInfoResponse(signedTransactionInfo: signed))
        case .appTransaction:
            throw APIErrorResponse.appTransactionIdNotSupported
        case .unknown:
            throw APIErrorResponse.transactionIdNotFound
        }
    }

    /// `GET /inApps/v2/history/{transactionId}` → `HistoryResponse`, ≤ 20 per page, paged by `revision`.
    func getTransactionHistory(_ request: Request, _ context: SimulatorRequestContext) async throws -> Response {
        let id = try pathTransactionId(context)
        let query = request.uri.queryParameters
        var filter = TransactionHistoryFilter()
        if let text = query.get("startDate") {
            guard let ms = Int64(text) else { throw APIErrorResponse.invalidStartDate }
            filter.startDate = Date(appStoreMilliseconds: ms)
        }
        if let text = query.get("endDate") {
            guard let ms = Int64(text) else { throw APIErrorResponse.invalidEndDate }
            filter.endDate = Date(appStoreMilliseconds: ms)
        }
        if let start = filter.startDate, let end = filter.endDate, end <= start {
            throw APIErrorResponse.startDateAfterEndDate
        }
        filter.productIds = query.getAll("productId")
        filter.productTypes = try query.getAll("productType").map { text in
            let type = TransactionHistoryRequest.ProductType(rawValue: text)
            guard type.isKnown else { throw APIErrorResponse.invalidProductType }
            return type
        }
        if let sort = query.get("sort") {
            let order = TransactionHistoryRequest.Order(rawValue: sort)
            guard order.isKnown else { throw APIErrorResponse.invalidSort }
            filter.descending = order == .descending
        }
        filter.subscriptionGroupIdentifiers = query.getAll("subscriptionGroupIdentifier")
        if let ownership = query.get("inAppOwnershipType") {
            let type = InAppOwnershipType(rawValue: ownership)
            guard type.isKnown else { throw APIErrorResponse.invalidInAppOwnershipType }
            filter.inAppOwnershipType = type
        }
        if let revoked = query.get("revoked") {
            switch revoked.lowercased() {
            case "true": filter.revoked = true
            case "false": filter.revoked = false
            default: throw APIErrorResponse.invalidRevoked
            }
        }
        let position = try revisionPosition(query.get("revision"))
        let customer = try await customer(for: id)
        let page = try await store.transactionHistory(customer: customer, filter: filter, after: position)
        let configuration = store.configuration
        return JSONResponse.make(HistoryResponse(
            revision: ContinuationToken.encode("revision", String(page.position)),
            hasMore: page.hasMore,
            bundleId: configuration.bundleId,
            appAppleId: configuration.appAppleId,
            environment: configuration.environment,
            signedTransactions: page.signedItems
        ))
    }

    /// `GET /inApps/v1/subscriptions/{transactionId}` → `StatusResponse`, optionally filtered by
    /// repeated `status` (1–5).
    func getAllSubscriptionStatuses(_ request: Request, _ context: SimulatorRequestContext) async throws -> Response {
        let id = try pathTransactionId(context)
        let statuses = try request.uri.queryParameters.getAll("status").map { text in
            guard let raw = Int32(text), SubscriptionStatus(rawValue: raw).isKnown else {
                throw APIErrorResponse.invalidStatus
            }
            return SubscriptionStatus(rawValue: raw)
        }
        let customer = try await customer(for: id)
        let data = try await store.subscriptionStatuses(customer: customer, statuses: statuses)
        let configuration = store.configuration
        return JSONResponse.make(StatusResponse(
            environment: configuration.environment,
            bundleId: configuration.bundleId,
            appAppleId: configuration.appAppleId,
            data: data
        ))
    }

    /// `GET /inApps/v2/refund/lookup/{transactionId}` → `RefundHistoryResponse`, ≤ 20 per page.
    func getRefundHistory(_ request: Request, _ context: SimulatorRequestContext) async throws -> Response {
        let id = try pathTransactionId(context)
        let position = try revisionPosition(request.uri.queryParameters.get("revision"))
        let customer = try await customer(for: id)
        let page = try await store.refundHistory(customer: customer, after: position)
        return JSONResponse.make(RefundHistoryResponse(
            signedTransactions: page.signedItems,
            revision: ContinuationToken.encode("revision", String(page.position)),
            hasMore: page.hasMore
        ))
    }

    private func revisionPosition(_ revision: String?) throws -> UInt64? {
        guard let revision else { return nil }
        guard let text = ContinuationToken.decode("revision", revision), let position = UInt64(text) else {
            throw APIErrorResponse.invalidRequestRevision
        }
        return position
    }
}

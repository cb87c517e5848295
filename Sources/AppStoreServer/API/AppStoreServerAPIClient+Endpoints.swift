import Foundation

/// The App Store Server API endpoints Verdict uses. `transactionId` parameters
/// accept any transaction id of the customer where Apple does (history, statuses, refunds: also
/// `originalTransactionId` and `appTransactionId`).
extension AppStoreServerAPIClient {
    /// Get Transaction Info: `GET /inApps/v1/transactions/{transactionId}`.
    public func getTransactionInfo(transactionId: String) async throws(AppStoreAPIFailure) -> TransactionInfoResponse {
        let id = try pathSegment(transactionId, name: "transactionId")
        return try await send("GET", "/inApps/v1/transactions/\(id)", decoding: TransactionInfoResponse.self)
    }

    /// Get Transaction History (v2): `GET /inApps/v2/history/{transactionId}` with the request's
    /// filters and, for later pages, the previous response's `revision`. One page (up to 20).
    public func getTransactionHistory(
        transactionId: String,
        revision: String? = nil,
        request: TransactionHistoryRequest = TransactionHistoryRequest()
    ) async throws(AppStoreAPIFailure) -> HistoryResponse {
        let id = try pathSegment(transactionId, name: "transactionId")
        return try await send(
            "GET", "/inApps/v2/history/\(id)", query: request.queryItems(revision: revision),
            decoding: HistoryResponse.self
        )
    }

    /// Get All Subscription Statuses: `GET /inApps/v1/subscriptions/{transactionId}`, optionally
    /// only the given statuses (repeated `status` parameter).
    public func getAllSubscriptionStatuses(
        transactionId: String,
        status: [SubscriptionStatus] = []
    ) async throws(AppStoreAPIFailure) -> StatusResponse {
        let id = try pathSegment(transactionId, name: "transactionId")
        return try await send(
            "GET", "/inApps/v1/subscriptions/\(id)", query: status.map { ("status", String($0.rawValue)) },
            decoding: StatusResponse.self
        )
    }

    /// Get Refund History (v2): `GET /inApps/v2/refund/lookup/{transactionId}`, one page (up to 20).
    public func getRefundHistory(
        transactionId: String,
        revision: String? = nil
    ) async throws(AppStoreAPIFailure) -> RefundHistoryResponse {
        let id = try pathSegment(transactionId, name: "transactionId")
        return try await send(
            "GET", "/inApps/v2/refund/lookup/\(id)", query: revision.map { [("revision", $0)] } ?? [],
            decoding: RefundHistoryResponse.self
        )
    }

    /// Send Consumption Information (v2): `PUT /inApps/v2/transactions/consumption/{transactionId}`
    /// with a ``ConsumptionRequest`` body. Apple answers 202 Accepted with no body; any 2xx counts
    /// as success. Send it within 12 hours of the `CONSUMPTION_REQUEST` notification, and only with
    /// the customer's consent.
    public func sendConsumptionInformation(
        transactionId: String,
        request: ConsumptionRequest
    ) async throws(AppStoreAPIFailure) {
        let id = try pathSegment(transactionId, name: "transactionId")
        _ = try await send("PUT", "/inApps/v2/transactions/consumption/\(id)", body: encode(request))
    }

    /// Get Notification History: `POST /inApps/v1/notifications/history` with the request as JSON
    /// and, for later pages, the previous response's `paginationToken` as a query parameter (send the
    /// same body again). One page (up to 20).
    public func getNotificationHistory(
        paginationToken: String? = nil,
        request: NotificationHistoryRequest
    ) async throws(AppStoreAPIFailure) -> NotificationHistoryResponse {
        try await send(
            "POST", "/inApps/v1/notifications/history",
            query: paginationToken.map { [("paginationToken", $0)] } ?? [],
            body: encode(request), decoding: NotificationHistoryResponse.self
        )
    }

    /// Request a Test Notification: `POST /inApps/v1/notifications/test`.
    public func requestTestNotification() async throws(AppStoreAPIFailure) -> SendTestNotificationResponse {
        try await send("POST", "/inApps/v1/notifications/test", decoding: SendTestNotificationResponse.self)
    }

    /// Get Test Notification Status: `GET /inApps/v1/notifications/test/{testNotificationToken}`.
    public func getTestNotificationStatus(
        testNotificationToken: String
    ) async throws(AppStoreAPIFailure) -> CheckTestNotificationResponse {
        let token = try pathSegment(testNotificationToken, name: "testNotificationToken")
        return try await send(
            "GET", "/inApps/v1/notifications/test/\(token)", decoding: CheckTestNotificationResponse.self
        )
    }
}

import AppStoreServer
import Foundation
import Hummingbird

/// Get Notification History, Request a Test Notification and Get Test Notification Status.
extension APIRoutes {
    /// `POST /inApps/v1/notifications/history` with a `NotificationHistoryRequest` body →
    /// `NotificationHistoryResponse`, ≤ 20 per page, paged by the `paginationToken` query parameter.
    func getNotificationHistory(_ request: Request, _ context: SimulatorRequestContext) async throws -> Response {
        let body = try await request.collectBody()
        guard let object = JSONValue.parse(body)?.objectValue else { throw APIErrorResponse.generalBadRequest }
        guard let startMs = object["startDate"]?.integerValue else { throw APIErrorResponse.invalidStartDate }
        guard let endMs = object["endDate"]?.integerValue else { throw APIErrorResponse.invalidEndDate }
        guard let historyRequest = try? AppStoreJSON.decoder().decode(NotificationHistoryRequest.self, from: body) else {
            throw APIErrorResponse.generalBadRequest
        }
        let startDate = Date(appStoreMilliseconds: startMs)
        let endDate = Date(appStoreMilliseconds: endMs)
        let now = store.now
        guard now.timeIntervalSince(startDate) <= 180 * 86400 else { throw APIErrorResponse.startDateTooFarInPast }
        guard endDate > startDate else { throw APIErrorResponse.startDateAfterEndDate }
        if historyRequest.transactionId != nil, historyRequest.notificationType != nil {
            throw APIErrorResponse.multipleFiltersSupplied
        }
        if let type = historyRequest.notificationType, !type.isKnown { throw APIErrorResponse.invalidNotificationType }
        if let subtype = historyRequest.notificationSubtype,
           !subtype.isKnown || historyRequest.notificationType == nil {
            throw APIErrorResponse.invalidNotificationType
        }
        if let transactionId = historyRequest.transactionId,
           transactionId.isEmpty || !transactionId.allSatisfy({ $0.isASCII && $0.isNumber }) {
            throw APIErrorResponse.invalidTransactionId
        }
        var position: Int?
        if let token = request.uri.queryParameters.get("paginationToken") {
            guard let text = ContinuationToken.decode("notifications", token), let index = Int(text), index >= 0 else {
                throw APIErrorResponse.invalidPaginationToken
            }
            position = index
        }
        let filter = NotificationHistoryFilter(
            startDate: startDate, endDate: endDate, notificationType: historyRequest.notificationType,
            notificationSubtype: historyRequest.notificationSubtype, transactionId: historyRequest.transactionId,
            onlyFailures: historyRequest.onlyFailures ?? false)
        let page = await store.notificationHistory(filter, after: position)
        return JSONResponse.make(NotificationHistoryResponse(
            paginationToken: page.hasMore ? ContinuationToken.encode("notifications", String(page.position)) : nil,
            hasMore: page.hasMore,
            notificationHistory: page.items
        ))
    }

    /// `POST /inApps/v1/notifications/test` → `SendTestNotificationResponse`; 404 4040007 when no
    /// notification URL is configured.
    func requestTestNotification(_ request: Request, _ context: SimulatorRequestContext) async throws -> Response {
        guard await deliverer.deliveryURL != nil else { throw APIErrorResponse.serverNotificationURLNotFound }
        let token = try await store.sendTestNotification().token
        return JSONResponse.make(SendTestNotificationResponse(testNotificationToken: token))
    }

    /// `GET /inApps/v1/notifications/test/{testNotificationToken}` → `CheckTestNotificationResponse`.
    func getTestNotificationStatus(_ request: Request, _ context: SimulatorRequestContext) async throws -> Response {
        guard let token = context.parameters.get("testNotificationToken"),
              let notification = await store.testNotification(token: token)
        else { throw APIErrorResponse.testNotificationNotFound }
        return JSONResponse.make(CheckTestNotificationResponse(
            signedPayload: notification.signedPayload,
            sendAttempts: notification.sendAttempts.map {
                SendAttemptItem(attemptDate: $0.attemptDate, sendAttemptResult: $0.sendAttemptResult)
            }
        ))
    }
}

import Foundation

/// Conveniences that follow `hasMore` through every page (the API's paged endpoints return a
/// `revision` or pagination token to ask for the next one).
extension AppStoreServerAPIClient {
    /// The default cap on pages fetched by one paging call (20 items per page).
    public static let defaultMaxPages = 500

    /// Every page of Get Transaction History (v2): re-sends the same `request` with each response's
    /// `revision` while `hasMore` is true.
    ///
    /// Throws ``AppStoreAPIFailure/Kind-swift.enum/invalidResponse`` if a page says `hasMore` without a
    /// new `revision`, or after `maxPages` pages.
    public func getAllTransactionHistory(
        transactionId: String,
        request: TransactionHistoryRequest = TransactionHistoryRequest(),
        maxPages: Int = defaultMaxPages
    ) async throws(AppStoreAPIFailure) -> [HistoryResponse] {
        var pages: [HistoryResponse] = []
        var revision: String?
        while true {
            let page = try await getTransactionHistory(transactionId: transactionId, revision: revision, request: request)
            pages.append(page)
            guard page.hasMore == true else { return pages }
            revision = try Self.nextCursor(page.revision, previous: revision, name: "revision", pages: pages.count, maxPages: maxPages)
        }
    }

    /// Every page of Get Notification History: re-sends the same body with each response's
    /// `paginationToken` while `hasMore` is true.
    ///
    /// Throws ``AppStoreAPIFailure/Kind-swift.enum/invalidResponse`` if a page says `hasMore` without a
    /// new `paginationToken`, or after `maxPages` pages.
    public func getAllNotificationHistory(
        request: NotificationHistoryRequest,
        maxPages: Int = defaultMaxPages
    ) async throws(AppStoreAPIFailure) -> [NotificationHistoryResponse] {
        var pages: [NotificationHistoryResponse] = []
        var token: String?
        while true {
            let page = try await getNotificationHistory(paginationToken: token, request: request)
            pages.append(page)
            guard page.hasMore == true else { return pages }
            token = try Self.nextCursor(page.paginationToken, previous: token, name: "paginationToken", pages: pages.count, maxPages: maxPages)
        }
    }

    /// The cursor for the next page, or a failure when the server's paging cannot be followed.
    private static func nextCursor(
        _ next: String?, previous: String?, name: String, pages: Int, maxPages: Int
    ) throws(AppStoreAPIFailure) -> String {
        guard let next, !next.isEmpty else {
            throw .invalidResponse(status: nil, "hasMore is true but no \(name) was returned")
        }
        guard next != previous else {
            throw .invalidResponse(status: nil, "hasMore is true but \(name) did not change")
        }
        guard pages < maxPages else {
            throw .invalidResponse(status: nil, "more than \(maxPages) pages")
        }
        return next
    }
}

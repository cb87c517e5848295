import Foundation

/// The Retention Messaging API's management endpoints (messages, images, default messages, the
/// realtime URL). Apple's rate limit is 1 request per second for each (10 for Configure Default Message),
/// a tenth of that in Sandbox.
extension AppStoreServerAPIClient {
    /// Upload Message: `PUT /inApps/v1/messaging/message/{messageIdentifier}`. Apple answers 409
    /// (`4090001`) when the identifier exists, and refuses images that were never uploaded
    /// (`4040014`); the message starts `PENDING` review.
    public func uploadMessage(messageIdentifier: UUID, _ message: UploadMessageRequestBody) async throws(AppStoreAPIFailure) {
        _ = try await send("PUT", "/inApps/v1/messaging/message/\(messageIdentifier.uuidString.lowercased())", body: encode(message))
    }

    /// Delete Message: `DELETE /inApps/v1/messaging/message/{messageIdentifier}` (404 `4040015` when unknown).
    public func deleteMessage(messageIdentifier: UUID) async throws(AppStoreAPIFailure) {
        _ = try await send("DELETE", "/inApps/v1/messaging/message/\(messageIdentifier.uuidString.lowercased())")
    }

    /// Get Message List: `GET /inApps/v1/messaging/message/list`.
    public func getMessageList() async throws(AppStoreAPIFailure) -> GetMessageListResponse {
        try await send("GET", "/inApps/v1/messaging/message/list", decoding: GetMessageListResponse.self)
    }

    /// Upload Image: `PUT /inApps/v1/messaging/image/{imageIdentifier}?imageSize=…` with the raw PNG
    /// as an `image/png` body. Apple's rules: PNG without transparency; `FULL_SIZE` exactly 3840
    /// pixels wide and 160–2160 high; at most 2000 images per app. Apple answers 409 (`4090000`)
    /// when the identifier exists, 400 `4000161` for an image that is not a PNG or has transparency,
    /// 400 `4000216` for a wrong size, 403 `4030014` past the limit; the image starts `PENDING` review.
    public func uploadImage(_ png: Data, imageIdentifier: UUID, imageSize: ImageSize) async throws(AppStoreAPIFailure) {
        _ = try await send(
            "PUT", "/inApps/v1/messaging/image/\(imageIdentifier.uuidString.lowercased())",
            query: [("imageSize", imageSize.rawValue)], body: png, contentType: "image/png")
    }

    /// Delete Image: `DELETE /inApps/v1/messaging/image/{imageIdentifier}` (404 `4040014` when
    /// unknown, 403 `4030019` while a message uses it).
    public func deleteImage(imageIdentifier: UUID) async throws(AppStoreAPIFailure) {
        _ = try await send("DELETE", "/inApps/v1/messaging/image/\(imageIdentifier.uuidString.lowercased())")
    }

    /// Get Image List: `GET /inApps/v1/messaging/image/list`.
    public func getImageList() async throws(AppStoreAPIFailure) -> GetImageListResponse {
        try await send("GET", "/inApps/v1/messaging/image/list", decoding: GetImageListResponse.self)
    }

    /// Configure Default Message: `PUT /inApps/v1/messaging/default/{productId}/{locale}` (the
    /// message must be approved: 403 `4030017` otherwise; its images too: 403 `4030018`).
    public func configureDefaultMessage(
        productId: String, locale: String, _ request: DefaultConfigurationRequest
    ) async throws(AppStoreAPIFailure) {
        let product = try pathSegment(productId, name: "productId")
        let locale = try pathSegment(locale, name: "locale")
        _ = try await send("PUT", "/inApps/v1/messaging/default/\(product)/\(locale)", body: encode(request))
    }

    /// Get Default Message: `GET /inApps/v1/messaging/default/{productId}/{locale}` (404 `4040020` when none).
    public func getDefaultMessage(productId: String, locale: String) async throws(AppStoreAPIFailure) -> DefaultConfigurationRequest {
        let product = try pathSegment(productId, name: "productId")
        let locale = try pathSegment(locale, name: "locale")
        return try await send("GET", "/inApps/v1/messaging/default/\(product)/\(locale)", decoding: DefaultConfigurationRequest.self)
    }

    /// Delete Default Message: `DELETE /inApps/v1/messaging/default/{productId}/{locale}`.
    public func deleteDefaultMessage(productId: String, locale: String) async throws(AppStoreAPIFailure) {
        let product = try pathSegment(productId, name: "productId")
        let locale = try pathSegment(locale, name: "locale")
        _ = try await send("DELETE", "/inApps/v1/messaging/default/\(product)/\(locale)")
    }

    /// Configure Realtime URL: `PUT /inApps/v1/messaging/realtime/url` (`https://`, ≤ 256
    /// characters; Production only after a passing performance test: 403 `4030026`).
    public func setRealtimeURL(_ url: String) async throws(AppStoreAPIFailure) {
        _ = try await send("PUT", "/inApps/v1/messaging/realtime/url", body: encode(RealtimeURLBody(realtimeURL: url)))
    }

    /// Get Realtime URL: `GET /inApps/v1/messaging/realtime/url` (404 `4040021` when unset).
    public func getRealtimeURL() async throws(AppStoreAPIFailure) -> RealtimeURLBody {
        try await send("GET", "/inApps/v1/messaging/realtime/url", decoding: RealtimeURLBody.self)
    }

    /// Delete Realtime URL: `DELETE /inApps/v1/messaging/realtime/url`.
    public func deleteRealtimeURL() async throws(AppStoreAPIFailure) {
        _ = try await send("DELETE", "/inApps/v1/messaging/realtime/url")
    }
}

/// Apple's realtime performance test (Sandbox only; 404 when the account has no access to realtime
/// Retention Messaging).
extension AppStoreServerAPIClient {
    /// Initiate Performance Test: `POST /inApps/v1/messaging/performanceTest`. One test at a time.
    public func initiatePerformanceTest(originalTransactionId: String) async throws(AppStoreAPIFailure) -> PerformanceTestResponse {
        try await send(
            "POST", "/inApps/v1/messaging/performanceTest",
            body: encode(PerformanceTestRequest(originalTransactionId: originalTransactionId)), decoding: PerformanceTestResponse.self)
    }

    /// Get Performance Test Results: `GET /inApps/v1/messaging/performanceTest/result/{requestId}`.
    public func getPerformanceTestResult(requestId: String) async throws(AppStoreAPIFailure) -> PerformanceTestResultResponse {
        let id = try pathSegment(requestId, name: "requestId")
        return try await send(
            "GET", "/inApps/v1/messaging/performanceTest/result/\(id)", decoding: PerformanceTestResultResponse.self)
    }
}

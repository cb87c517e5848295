import AppStoreServer
import Foundation

extension SimulatorStore {
    /// The signed `{signedPayload}` body the App Store posts to the developer's realtime URL when
    /// the customer of `originalTransactionId` views the subscription in the App Store's settings:
    /// its current product, the app's App Apple ID and environment, `userLocale`, a fresh
    /// request identifier, signed now.
    public func realtimeRequest(
        originalTransactionId: String, userLocale: String = "en-US", requestIdentifier: UUID = UUID(), appAppleId: Int64? = nil
    ) throws -> (body: RealtimeRequestBody, request: DecodedRealtimeRequestBody) {
        let record = try subscription(originalTransactionId)
        let request = DecodedRealtimeRequestBody(
            originalTransactionId: originalTransactionId, appAppleId: appAppleId ?? configuration.appAppleId ?? 0,
            productId: record.productId, userLocale: userLocale, requestIdentifier: requestIdentifier, signedDate: now,
            environment: configuration.environment)
        return (RealtimeRequestBody(signedPayload: try signer.sign(request)), request)
    }
}

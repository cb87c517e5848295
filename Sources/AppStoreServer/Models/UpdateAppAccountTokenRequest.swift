import Foundation

/// The body of Set App Account Token (`PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken`).
public struct UpdateAppAccountTokenRequest: Codable, Hashable, Sendable {
    /// The UUID to associate with the purchase (Swift encodes it in upper case).
    public var appAccountToken: UUID

    public init(appAccountToken: UUID) {
        self.appAccountToken = appAccountToken
    }
}

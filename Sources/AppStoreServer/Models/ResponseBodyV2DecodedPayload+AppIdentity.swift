extension ResponseBodyV2DecodedPayload {
    /// The app and environment the notification is about, taken from the first present source in
    /// Apple's order: `data`, then `summary`, then `externalPurchaseToken` (environment Sandbox when
    /// `externalPurchaseId` starts with `"SANDBOX"`, else Production), then `appData`.
    /// All three are nil when none of them is present.
    public var appIdentity: (bundleId: String?, appAppleId: Int64?, environment: AppStoreEnvironment?) {
        if let data {
            return (data.bundleId, data.appAppleId, data.environment)
        }
        if let summary {
            return (summary.bundleId, summary.appAppleId, summary.environment)
        }
        if let token = externalPurchaseToken {
            let isSandbox = token.externalPurchaseId?.hasPrefix("SANDBOX") ?? false
            return (token.bundleId, token.appAppleId, isSandbox ? .sandbox : .production)
        }
        if let appData {
            return (appData.bundleId, appData.appAppleId, appData.environment)
        }
        return (nil, nil, nil)
    }
}

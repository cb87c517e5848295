import Foundation

extension SignedDataVerifier {
    /// Verifies a notification's `signedPayload` and every JWS nested in it.
    ///
    /// The app identity comes from `data`, else `summary`, else `externalPurchaseToken`, else
    /// `appData` (``ResponseBodyV2DecodedPayload/appIdentity``). Checks, in Apple's order: bundle id,
    /// App Apple ID (see ``checkAppAppleId(_:environment:)``), then environment. Nested
    /// `signedTransactionInfo`, `signedRenewalInfo` and `signedAppTransactionInfo` are verified like
    /// top-level payloads and must carry the notification's environment.
    public func verifyNotification(_ signedPayload: String) async throws(VerificationError) -> VerifiedNotification {
        let payload = try await verifySignature(
            signedPayload, as: ResponseBodyV2DecodedPayload.self, signedDate: \.signedDate
        )
        let identity = payload.appIdentity
        guard identity.bundleId != nil || identity.appAppleId != nil || identity.environment != nil else {
            throw .invalidAppIdentifier("the notification carries no data, summary, externalPurchaseToken or appData")
        }
        try checkBundleId(identity.bundleId)
        try checkAppAppleId(identity.appAppleId, environment: identity.environment)
        let environment = try checkEnvironment(identity.environment)

        var verified = VerifiedNotification(payload: payload)
        if let jws = payload.data?.signedTransactionInfo {
            (verified.transaction, verified.transactionJSON) = try await transactionKeepingJSON(jws)
            try checkNested(verified.transaction?.environment, "signedTransactionInfo", outer: environment)
        }
        if let jws = payload.data?.signedRenewalInfo {
            (verified.renewalInfo, verified.renewalInfoJSON) = try await renewalInfoKeepingJSON(jws)
            try checkNested(verified.renewalInfo?.environment, "signedRenewalInfo", outer: environment)
        }
        if let jws = payload.appData?.signedAppTransactionInfo {
            (verified.appTransaction, verified.appTransactionJSON) = try await appTransactionKeepingJSON(jws)
            try checkNested(verified.appTransaction?.receiptType, "signedAppTransactionInfo", outer: environment)
        }
        return verified
    }

    /// Verifies a signed transaction (`signedTransactionInfo`, API `signedTransactions`): bundle id,
    /// then environment. Transactions carry no App Apple ID.
    public func verifyTransaction(_ signedTransaction: String) async throws(VerificationError) -> JWSTransactionDecodedPayload {
        try await transactionKeepingJSON(signedTransaction).payload
    }

    /// ``verifyTransaction(_:)``, answering also the verified JSON bytes exactly as signed (so
    /// they can be stored as they are, without encoding the model again).
    public func verifyTransactionKeepingJSON(_ signedTransaction: String) async throws(VerificationError)
        -> (payload: JWSTransactionDecodedPayload, json: Data)
    {
        try await transactionKeepingJSON(signedTransaction)
    }

    func transactionKeepingJSON(_ signedTransaction: String) async throws(VerificationError)
        -> (payload: JWSTransactionDecodedPayload, json: Data)
    {
        let verified = try await verifySignatureKeepingJSON(
            signedTransaction, as: JWSTransactionDecodedPayload.self, signedDate: \.signedDate
        )
        try checkBundleId(verified.payload.bundleId)
        _ = try checkEnvironment(verified.payload.environment)
        return verified
    }

    /// Verifies signed renewal info (`signedRenewalInfo`): environment only (renewal info carries
    /// neither bundle id nor App Apple ID).
    public func verifyRenewalInfo(_ signedRenewalInfo: String) async throws(VerificationError) -> JWSRenewalInfoDecodedPayload {
        try await renewalInfoKeepingJSON(signedRenewalInfo).payload
    }

    func renewalInfoKeepingJSON(_ signedRenewalInfo: String) async throws(VerificationError)
        -> (payload: JWSRenewalInfoDecodedPayload, json: Data)
    {
        let verified = try await verifySignatureKeepingJSON(
            signedRenewalInfo, as: JWSRenewalInfoDecodedPayload.self, signedDate: \.signedDate
        )
        _ = try checkEnvironment(verified.payload.environment)
        return verified
    }

    /// Verifies a signed app transaction: bundle id, App Apple ID, then `receiptType` as the
    /// environment. Its offline validation time is `receiptCreationDate`.
    public func verifyAppTransaction(_ signedAppTransaction: String) async throws(VerificationError) -> AppTransaction {
        try await appTransactionKeepingJSON(signedAppTransaction).payload
    }

    func appTransactionKeepingJSON(_ signedAppTransaction: String) async throws(VerificationError)
        -> (payload: AppTransaction, json: Data)
    {
        let verified = try await verifySignatureKeepingJSON(
            signedAppTransaction, as: AppTransaction.self, signedDate: \.receiptCreationDate
        )
        let appTransaction = verified.payload
        try checkBundleId(appTransaction.bundleId)
        try checkAppAppleId(appTransaction.appAppleId, environment: appTransaction.receiptType)
        _ = try checkEnvironment(appTransaction.receiptType)
        return verified
    }

    // MARK: - Identity checks

    func checkBundleId(_ payloadBundleId: String?) throws(VerificationError) {
        guard payloadBundleId == bundleId else {
            throw .invalidAppIdentifier(
                payloadBundleId == nil ? "the payload names no bundle id" : "the bundle id is not the configured one"
            )
        }
    }

    /// Compares the App Apple ID unless the payload comes from an accepted non-production
    /// environment (Sandbox payloads need not carry it).
    ///
    /// So a Production payload must carry the configured id, and so must a payload whose
    /// environment is not accepted when Production is — which reproduces Apple's single-environment
    /// verifier, where a production verifier compares the id before it compares the environment.
    func checkAppAppleId(_ payloadAppAppleId: Int64?, environment: AppStoreEnvironment?) throws(VerificationError) {
        guard let appAppleId else { return }
        let acceptedNonProduction = environment.map { $0 != .production && environments.contains($0) } ?? false
        if acceptedNonProduction { return }
        guard payloadAppAppleId == appAppleId else {
            throw .invalidAppIdentifier(
                payloadAppAppleId == nil ? "the payload names no App Apple ID" : "the App Apple ID is not the configured one"
            )
        }
    }

    func checkEnvironment(_ environment: AppStoreEnvironment?) throws(VerificationError) -> AppStoreEnvironment {
        guard let environment else { throw .invalidEnvironment("the payload names no environment") }
        guard environments.contains(environment) else {
            let accepted = environments.map(\.rawValue).sorted().joined(separator: ", ")
            throw .invalidEnvironment("\"\(environment.rawValue.prefix(40))\" is not one of: \(accepted)")
        }
        return environment
    }

    private func checkNested(
        _ environment: AppStoreEnvironment?, _ field: String, outer: AppStoreEnvironment
    ) throws(VerificationError) {
        guard environment == outer else {
            throw .invalidEnvironment("\(field) is not from the notification's environment \(outer.rawValue)")
        }
    }
}

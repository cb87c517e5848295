/// The stored (newest by `signedDate`) version of one transaction.
public struct TransactionRecord: Sendable, Equatable {
    public var transactionId: String
    public var originalTransactionId: String
    public var productId: String
    public var appAccountToken: String?
    public var environment: String?
    public var purchaseDate: Int64?
    public var revocationDate: Int64?
    public var signedDate: Int64
    /// The verified `JWSTransactionDecodedPayload` as JSON: the bytes Apple signed, as verified
    /// (rows written before Verdict kept them: the model in AppStoreJSON encoding).
    public var decodedJSON: String

    public init(transactionId: String, originalTransactionId: String, productId: String, appAccountToken: String?,
                environment: String?, purchaseDate: Int64?, revocationDate: Int64?, signedDate: Int64,
                decodedJSON: String) {
        self.transactionId = transactionId
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.appAccountToken = appAccountToken
        self.environment = environment
        self.purchaseDate = purchaseDate
        self.revocationDate = revocationDate
        self.signedDate = signedDate
        self.decodedJSON = decodedJSON
    }
}

/// The stored (newest by `signedDate`) renewal info of one subscription.
public struct RenewalInfoRecord: Sendable, Equatable {
    public var originalTransactionId: String
    public var productId: String?
    public var autoRenewStatus: Int?
    public var environment: String?
    public var signedDate: Int64
    /// The verified `JWSRenewalInfoDecodedPayload` as JSON: the bytes Apple signed, as verified
    /// (rows written before Verdict kept them: the model in AppStoreJSON encoding).
    public var decodedJSON: String

    public init(originalTransactionId: String, productId: String?, autoRenewStatus: Int?, environment: String?,
                signedDate: Int64, decodedJSON: String) {
        self.originalTransactionId = originalTransactionId
        self.productId = productId
        self.autoRenewStatus = autoRenewStatus
        self.environment = environment
        self.signedDate = signedDate
        self.decodedJSON = decodedJSON
    }
}

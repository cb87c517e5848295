import Foundation

/// The decoded payload of a signed transaction (`signedTransactionInfo`, `signedTransactions`).
///
/// Advanced Commerce details (`advancedCommerceInfo`) are not modelled and are ignored when decoding.
///
/// A multiseat purchase carries ``multiSeatInfo``: ``quantity`` is then the number of seats and
/// ``price`` the average price per seat, not the charge. The seat helpers
/// (`JWSTransactionDecodedPayload+Seats.swift`) give the charge, the seats and the values whose
/// placement is not confirmed.
public struct JWSTransactionDecodedPayload: Codable, Hashable, Sendable {
    /// The transaction id of the original purchase.
    public var originalTransactionId: String?
    /// The id of this transaction (purchase, restore or renewal).
    public var transactionId: String?
    /// The id of a subscription purchase event across devices, including renewals.
    public var webOrderLineItemId: String?
    public var bundleId: String?
    public var productId: String?
    public var subscriptionGroupIdentifier: String?
    /// When the App Store charged the customer (or the restore / renewal time).
    public var purchaseDate: Date?
    public var originalPurchaseDate: Date?
    /// When the subscription expires or renews.
    public var expiresDate: Date?
    /// For a multiseat purchase, the number of seats the transaction covers (a seat-addition
    /// transaction covers only the seats it added); for a consumable, the number purchased;
    /// otherwise 1.
    public var quantity: Int32?
    /// The product type (`Auto-Renewable Subscription`, `Consumable`, …).
    public var type: ProductType?
    /// The UUID the app attached to the purchase, if any.
    public var appAccountToken: UUID?
    public var inAppOwnershipType: InAppOwnershipType?
    /// When Apple signed the transaction.
    public var signedDate: Date?
    public var revocationReason: RevocationReason?
    /// When the App Store refunded or revoked the transaction.
    public var revocationDate: Date?
    /// Whether the customer upgraded to another subscription (this one is then superseded).
    public var isUpgraded: Bool?
    public var offerType: OfferType?
    /// Offer code reference name, promotional offer id or win-back offer id.
    public var offerIdentifier: String?
    public var environment: AppStoreEnvironment?
    /// ISO 3166-1 alpha-3 country code of the storefront.
    public var storefront: String?
    public var storefrontId: String?
    public var transactionReason: TransactionReason?
    /// ISO 4217 currency code of `price`.
    public var currency: String?
    /// Price (or offer price) in milliunits of `currency`: 10990 means 10.99. For a multiseat
    /// purchase it is the average price per seat, not what the transaction charged (see
    /// ``chargedAmount``).
    public var price: Int64?
    public var offerDiscountType: OfferDiscountType?
    /// The app-download transaction id (one per Apple Account, or family member, per app).
    public var appTransactionId: String?
    /// The offer's duration as an ISO 8601 duration, e.g. `P1Y`.
    public var offerPeriod: String?
    public var revocationType: RevocationType?
    /// The refunded or revoked share in milliunits: 50000 means 50 %.
    public var revocationPercentage: Int32?
    public var billingPlanType: BillingPlanType?
    /// Commitment details of a subscription with a billing commitment.
    public var commitmentInfo: TransactionCommitmentInfo?
    /// The seats and price tiers of a multiseat purchase; nil for any other purchase.
    public var multiSeatInfo: TransactionMultiSeatInfo?
    /// `additionalTransactionReason` when it arrives at the top level; read
    /// ``resolvedAdditionalTransactionReason``, which also looks inside ``multiSeatInfo``.
    public var additionalTransactionReason: AdditionalTransactionReason?
    /// `revokedSeatQuantity` when it arrives at the top level; read ``resolvedRevokedSeatQuantity``,
    /// which also looks inside ``multiSeatInfo``.
    public var revokedSeatQuantity: Int32?

    public init(
        originalTransactionId: String? = nil,
        transactionId: String? = nil,
        webOrderLineItemId: String? = nil,
        bundleId: String? = nil,
        productId: String? = nil,
        subscriptionGroupIdentifier: String? = nil,
        purchaseDate: Date? = nil,
        originalPurchaseDate: Date? = nil,
        expiresDate: Date? = nil,
        quantity: Int32? = nil,
        type: ProductType? = nil,
        appAccountToken: UUID? = nil,
        inAppOwnershipType: InAppOwnershipType? = nil,
        signedDate: Date? = nil,
        revocationReason: RevocationReason? = nil,
        revocationDate: Date? = nil,
        isUpgraded: Bool? = nil,
        offerType: OfferType? = nil,
        offerIdentifier: String? = nil,
        environment: AppStoreEnvironment? = nil,
        storefront: String? = nil,
        storefrontId: String? = nil,
        transactionReason: TransactionReason? = nil,
        currency: String? = nil,
        price: Int64? = nil,
        offerDiscountType: OfferDiscountType? = nil,
        appTransactionId: String? = nil,
        offerPeriod: String? = nil,
        revocationType: RevocationType? = nil,
        revocationPercentage: Int32? = nil,
        billingPlanType: BillingPlanType? = nil,
        commitmentInfo: TransactionCommitmentInfo? = nil,
        multiSeatInfo: TransactionMultiSeatInfo? = nil,
        additionalTransactionReason: AdditionalTransactionReason? = nil,
        revokedSeatQuantity: Int32? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.transactionId = transactionId
        self.webOrderLineItemId = webOrderLineItemId
        self.bundleId = bundleId
        self.productId = productId
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate
        self.expiresDate = expiresDate
        self.quantity = quantity
        self.type = type
        self.appAccountToken = appAccountToken
        self.inAppOwnershipType = inAppOwnershipType
        self.signedDate = signedDate
        self.revocationReason = revocationReason
        self.revocationDate = revocationDate
        self.isUpgraded = isUpgraded
        self.offerType = offerType
        self.offerIdentifier = offerIdentifier
        self.environment = environment
        self.storefront = storefront
        self.storefrontId = storefrontId
        self.transactionReason = transactionReason
        self.currency = currency
        self.price = price
        self.offerDiscountType = offerDiscountType
        self.appTransactionId = appTransactionId
        self.offerPeriod = offerPeriod
        self.revocationType = revocationType
        self.revocationPercentage = revocationPercentage
        self.billingPlanType = billingPlanType
        self.commitmentInfo = commitmentInfo
        self.multiSeatInfo = multiSeatInfo
        self.additionalTransactionReason = additionalTransactionReason
        self.revokedSeatQuantity = revokedSeatQuantity
    }
}

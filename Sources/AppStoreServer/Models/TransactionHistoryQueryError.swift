/// Why query parameters could not be read as a ``TransactionHistoryRequest``.
///
/// Each case carries the offending value (or parameter name) and maps to the ``APIError`` the
/// App Store answers with.
public enum TransactionHistoryQueryError: Error, Hashable, Sendable {
    /// `startDate` is not a non-negative integer of milliseconds.
    case invalidStartDate(String)
    /// `endDate` is not a non-negative integer of milliseconds.
    case invalidEndDate(String)
    /// An empty `productId`.
    case invalidProductId(String)
    /// A `productType` other than `AUTO_RENEWABLE`, `NON_RENEWABLE`, `CONSUMABLE`, `NON_CONSUMABLE`.
    case invalidProductType(String)
    /// A `sort` other than `ASCENDING` / `DESCENDING`.
    case invalidSort(String)
    /// An empty `subscriptionGroupIdentifier`.
    case invalidSubscriptionGroupIdentifier(String)
    /// An `inAppOwnershipType` other than `FAMILY_SHARED` / `PURCHASED`.
    case invalidInAppOwnershipType(String)
    /// A `revoked` other than `true` / `false`.
    case invalidRevoked(String)
    /// A single-valued parameter (named here) appeared more than once.
    case repeatedParameter(String)

    /// The App Store error for this problem (HTTP 400).
    public var apiError: APIError {
        switch self {
        case .invalidStartDate: .invalidStartDate
        case .invalidEndDate: .invalidEndDate
        case .invalidProductId: .invalidProductId
        case .invalidProductType: .invalidProductType
        case .invalidSort: .invalidSort
        case .invalidSubscriptionGroupIdentifier: .invalidSubscriptionGroupIdentifier
        case .invalidInAppOwnershipType: .invalidInAppOwnershipType
        case .invalidRevoked: .invalidRevoked
        case .repeatedParameter(let name):
            switch name {
            case "startDate": .invalidStartDate
            case "endDate": .invalidEndDate
            case "sort": .invalidSort
            case "inAppOwnershipType": .invalidInAppOwnershipType
            case "revoked": .invalidRevoked
            default: .generalBadRequest
            }
        }
    }
}

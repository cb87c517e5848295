import Foundation

/// The filters of Get Transaction History (`GET /inApps/v2/history/{transactionId}`), sent as
/// query parameters rather than JSON.
///
/// When paging with a `revision`, send the same filters again.
public struct TransactionHistoryRequest: Codable, Hashable, Sendable {
    /// Only transactions purchased at or after this date (`startDate`, integer ms).
    public var startDate: Date?
    /// Only transactions purchased before this date (`endDate`, integer ms).
    public var endDate: Date?
    /// Only these products (repeatable `productId`).
    public var productIds: [String]?
    /// Only these product types (repeatable `productType`).
    public var productTypes: [ProductType]?
    /// Order by recently modified date; Apple defaults to ascending.
    public var sort: Order?
    /// Only these subscription groups (repeatable `subscriptionGroupIdentifier`).
    public var subscriptionGroupIdentifiers: [String]?
    public var inAppOwnershipType: InAppOwnershipType?
    /// `true`: only revoked (refunded) transactions; `false`: only non-revoked ones.
    public var revoked: Bool?

    public init(
        startDate: Date? = nil,
        endDate: Date? = nil,
        productIds: [String]? = nil,
        productTypes: [ProductType]? = nil,
        sort: Order? = nil,
        subscriptionGroupIdentifiers: [String]? = nil,
        inAppOwnershipType: InAppOwnershipType? = nil,
        revoked: Bool? = nil
    ) {
        self.startDate = startDate
        self.endDate = endDate
        self.productIds = productIds
        self.productTypes = productTypes
        self.sort = sort
        self.subscriptionGroupIdentifiers = subscriptionGroupIdentifiers
        self.inAppOwnershipType = inAppOwnershipType
        self.revoked = revoked
    }

    /// The query parameters in a stable order: `revision` (if given), `startDate`, `endDate`,
    /// `productId`…, `productType`…, `sort`, `subscriptionGroupIdentifier`…, `inAppOwnershipType`,
    /// `revoked`. Dates are integer milliseconds; `revoked` is `true` / `false`.
    public func queryItems(revision: String?) -> [(name: String, value: String)] {
        var items: [(name: String, value: String)] = []
        if let revision { items.append(("revision", revision)) }
        if let startDate { items.append(("startDate", String(startDate.appStoreMilliseconds))) }
        if let endDate { items.append(("endDate", String(endDate.appStoreMilliseconds))) }
        for productId in productIds ?? [] { items.append(("productId", productId)) }
        for productType in productTypes ?? [] { items.append(("productType", productType.rawValue)) }
        if let sort { items.append(("sort", sort.rawValue)) }
        for group in subscriptionGroupIdentifiers ?? [] { items.append(("subscriptionGroupIdentifier", group)) }
        if let inAppOwnershipType { items.append(("inAppOwnershipType", inAppOwnershipType.rawValue)) }
        if let revoked { items.append(("revoked", revoked ? "true" : "false")) }
        return items
    }

    /// Parses the filters from query parameters, as the App Store does (the simulator's side).
    ///
    /// `revision` and parameters this request does not know are ignored. Enumerated values must be
    /// documented ones; `revoked` accepts `true` / `false` in any letter case (Python's library
    /// sends `True` / `False`). A single-valued parameter given twice is rejected.
    public init(queryItems: [(name: String, value: String)]) throws(TransactionHistoryQueryError) {
        self.init()
        var seen: Set<String> = []
        for (name, value) in queryItems {
            let singleValued = ["startDate", "endDate", "sort", "inAppOwnershipType", "revoked"]
            if singleValued.contains(name), !seen.insert(name).inserted {
                throw .repeatedParameter(name)
            }
            switch name {
            case "startDate":
                guard let date = Self.parseMilliseconds(value) else { throw .invalidStartDate(value) }
                startDate = date
            case "endDate":
                guard let date = Self.parseMilliseconds(value) else { throw .invalidEndDate(value) }
                endDate = date
            case "productId":
                guard !value.isEmpty else { throw .invalidProductId(value) }
                productIds = (productIds ?? []) + [value]
            case "productType":
                let type = ProductType(rawValue: value)
                guard type.isKnown else { throw .invalidProductType(value) }
                productTypes = (productTypes ?? []) + [type]
            case "sort":
                let order = Order(rawValue: value)
                guard order.isKnown else { throw .invalidSort(value) }
                sort = order
            case "subscriptionGroupIdentifier":
                guard !value.isEmpty else { throw .invalidSubscriptionGroupIdentifier(value) }
                subscriptionGroupIdentifiers = (subscriptionGroupIdentifiers ?? []) + [value]
            case "inAppOwnershipType":
                let ownership = InAppOwnershipType(rawValue: value)
                guard ownership.isKnown else { throw .invalidInAppOwnershipType(value) }
                inAppOwnershipType = ownership
            case "revoked":
                switch value.lowercased() {
                case "true": revoked = true
                case "false": revoked = false
                default: throw .invalidRevoked(value)
                }
            default:
                continue
            }
        }
    }

    /// A non-negative decimal integer of milliseconds, without sign or fraction.
    private static func parseMilliseconds(_ text: String) -> Date? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
              let milliseconds = Int64(text) else { return nil }
        return Date(appStoreMilliseconds: milliseconds)
    }
}

import AppStoreServer
import Foundation
import Testing

@Suite("Transaction history request model")
struct TransactionHistoryRequestModelTests {
    static let full = TransactionHistoryRequest(
        startDate: ModelFixture.date(123_455),
        endDate: ModelFixture.date(123_456),
        productIds: ["com.example.1", "com.example.2"],
        productTypes: [.consumable, .autoRenewable],
        sort: .ascending,
        subscriptionGroupIdentifiers: ["sub_group_id", "sub_group_id_2"],
        inAppOwnershipType: .familyShared,
        revoked: false
    )

    private func pairs(_ items: [(name: String, value: String)]) -> [String] {
        items.map { "\($0.name)=\($0.value)" }
    }

    @Test func producesRepeatableParametersInStableOrder() {
        #expect(pairs(Self.full.queryItems(revision: "b2158121-7af9-49d4-9561-1f588205523e")) == [
            "revision=b2158121-7af9-49d4-9561-1f588205523e",
            "startDate=123455",
            "endDate=123456",
            "productId=com.example.1",
            "productId=com.example.2",
            "productType=CONSUMABLE",
            "productType=AUTO_RENEWABLE",
            "sort=ASCENDING",
            "subscriptionGroupIdentifier=sub_group_id",
            "subscriptionGroupIdentifier=sub_group_id_2",
            "inAppOwnershipType=FAMILY_SHARED",
            "revoked=false",
        ])
    }

    @Test func omitsRevisionAndAbsentFilters() {
        #expect(pairs(TransactionHistoryRequest().queryItems(revision: nil)).isEmpty)
        let request = TransactionHistoryRequest(sort: .descending, revoked: true)
        #expect(pairs(request.queryItems(revision: nil)) == ["sort=DESCENDING", "revoked=true"])
    }

    @Test func roundsDatesToWholeMilliseconds() {
        let request = TransactionHistoryRequest(startDate: Date(timeIntervalSince1970: 1_698_148_900.0006))
        #expect(pairs(request.queryItems(revision: nil)) == ["startDate=1698148900001"])
    }

    @Test func parsesWhatItProduces() throws {
        let parsed = try TransactionHistoryRequest(queryItems: Self.full.queryItems(revision: "rev"))
        #expect(parsed == Self.full)
        let empty = try TransactionHistoryRequest(queryItems: [])
        #expect(empty == TransactionHistoryRequest())
    }

    @Test func ignoresRevisionAndUnknownParameters() throws {
        let parsed = try TransactionHistoryRequest(queryItems: [("revision", "r"), ("excludeRevoked", "x"), ("productType", "NON_CONSUMABLE")])
        #expect(parsed == TransactionHistoryRequest(productTypes: [.nonConsumable]))
    }

    @Test func acceptsPythonStyleBooleans() throws {
        #expect(try TransactionHistoryRequest(queryItems: [("revoked", "True")]).revoked == true)
        #expect(try TransactionHistoryRequest(queryItems: [("revoked", "False")]).revoked == false)
    }

    struct Malformed: Sendable, CustomTestStringConvertible {
        let items: [QueryPair]
        let expected: TransactionHistoryQueryError
        let apiError: APIError
        var testDescription: String { items.map { "\($0.name)=\($0.value)" }.joined(separator: "&") }
    }

    struct QueryPair: Sendable {
        let name: String
        let value: String
        init(_ name: String, _ value: String) {
            self.name = name
            self.value = value
        }
    }

    @Test(arguments: [
        Malformed(items: [QueryPair("startDate", "yesterday")], expected: .invalidStartDate("yesterday"), apiError: .invalidStartDate),
        Malformed(items: [QueryPair("startDate", "-5")], expected: .invalidStartDate("-5"), apiError: .invalidStartDate),
        Malformed(items: [QueryPair("startDate", "1.5")], expected: .invalidStartDate("1.5"), apiError: .invalidStartDate),
        Malformed(items: [QueryPair("endDate", "")], expected: .invalidEndDate(""), apiError: .invalidEndDate),
        Malformed(items: [QueryPair("endDate", "99999999999999999999")], expected: .invalidEndDate("99999999999999999999"), apiError: .invalidEndDate),
        Malformed(items: [QueryPair("productId", "")], expected: .invalidProductId(""), apiError: .invalidProductId),
        Malformed(items: [QueryPair("productType", "Consumable")], expected: .invalidProductType("Consumable"), apiError: .invalidProductType),
        Malformed(items: [QueryPair("sort", "ascending")], expected: .invalidSort("ascending"), apiError: .invalidSort),
        Malformed(items: [QueryPair("subscriptionGroupIdentifier", "")], expected: .invalidSubscriptionGroupIdentifier(""), apiError: .invalidSubscriptionGroupIdentifier),
        Malformed(items: [QueryPair("inAppOwnershipType", "SHARED")], expected: .invalidInAppOwnershipType("SHARED"), apiError: .invalidInAppOwnershipType),
        Malformed(items: [QueryPair("revoked", "yes")], expected: .invalidRevoked("yes"), apiError: .invalidRevoked),
        Malformed(items: [QueryPair("sort", "ASCENDING"), QueryPair("sort", "DESCENDING")], expected: .repeatedParameter("sort"), apiError: .invalidSort),
    ])
    func rejectsMalformedValues(_ malformed: Malformed) {
        let items = malformed.items.map { (name: $0.name, value: $0.value) }
        #expect(throws: malformed.expected) {
            try TransactionHistoryRequest(queryItems: items)
        }
        #expect(malformed.expected.apiError == malformed.apiError)
    }
}

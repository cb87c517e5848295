import AppStoreServer
import Foundation
import Testing

/// Multiseat objects that differ from the expected shape still decode (a transaction is never
/// refused over a sub-object whose shape Apple has not confirmed); amounts that cannot be trusted
/// are nil, never a trap or a partial sum.
@Suite("Multiseat hostile values")
struct MultiSeatHostileModelTests {
    typealias Example = MultiSeatExample

    /// A tier list (raw JSON of the array's elements) and what must come of it.
    struct Tiers: Sendable, CustomTestStringConvertible {
        let name: String
        let elements: String
        var testDescription: String { name }
    }

    @Test(arguments: [
        Tiers(name: "missing price", elements: #"{"quantity":5},{"price":7990,"quantity":3}"#),
        Tiers(name: "missing quantity", elements: #"{"price":9990},{"price":7990,"quantity":3}"#),
        Tiers(name: "empty tier", elements: #"{},{"price":7990,"quantity":3}"#),
        Tiers(name: "price as string", elements: #"{"price":"9.99","quantity":5}"#),
        Tiers(name: "quantity as string", elements: #"{"price":9990,"quantity":"5"}"#),
        Tiers(name: "fractional price", elements: #"{"price":9990.5,"quantity":5}"#),
        Tiers(name: "price beyond Int64", elements: #"{"price":18446744073709551616,"quantity":1}"#),
        Tiers(name: "quantity beyond Int32", elements: #"{"price":1,"quantity":2147483648}"#),
        Tiers(name: "negative price", elements: #"{"price":-9990,"quantity":5},{"price":7990,"quantity":3}"#),
        Tiers(name: "negative quantity", elements: #"{"price":9990,"quantity":-5},{"price":7990,"quantity":3}"#),
        Tiers(name: "product overflows", elements: #"{"price":9223372036854775807,"quantity":2}"#),
        Tiers(name: "sum overflows", elements: #"{"price":5000000000000000000,"quantity":1},{"price":5000000000000000000,"quantity":1}"#),
        Tiers(name: "sum overflows in the type-name spelling", elements: #"{"tierPrice":4611686018427387904,"tierQuantity":1},{"tierPrice":4611686018427387904,"tierQuantity":1}"#),
        Tiers(name: "element not an object", elements: #"5,{"price":7990,"quantity":3}"#),
        Tiers(name: "no tiers", elements: ""),
    ])
    func untrustworthyTiersDecodeWithoutACharge(_ tiers: Tiers) throws {
        let transaction = try Example.decode(Example.transaction(price: 9240, quantity: 8, tiers: tiers.elements))
        #expect(transaction.isMultiSeat)
        #expect(transaction.multiSeatInfo?.invitationManagement == .apple)
        #expect(transaction.seatCount == 8)
        #expect(transaction.chargedAmount == nil)
    }

    @Test func aTierKeepsTheMembersItCouldRead() throws {
        let tier = try ModelFixture.decode(MultiSeatPriceTier.self, json: #"{"price":"9.99","quantity":5}"#)
        #expect(tier == MultiSeatPriceTier(price: nil, quantity: 5))
        #expect(tier.amount == nil)
        let mixed = try ModelFixture.decode(MultiSeatPriceTier.self, json: #"{"price":true,"tierPrice":9990,"tierQuantity":5}"#)
        #expect(mixed == MultiSeatPriceTier(price: 9990, quantity: 5))
        let both = try ModelFixture.decode(MultiSeatPriceTier.self, json: #"{"price":1,"quantity":2,"tierPrice":9990,"tierQuantity":5}"#)
        #expect(both == MultiSeatPriceTier(price: 1, quantity: 2))
    }

    @Test func amountsAtTheEdges() {
        #expect(MultiSeatPriceTier(price: 0, quantity: 5).amount == 0)
        #expect(MultiSeatPriceTier(price: .max, quantity: 1).amount == .max)
        #expect(MultiSeatPriceTier(price: .max, quantity: 2).amount == nil)
        #expect(MultiSeatPriceTier(price: 1, quantity: .max).amount == Int64(Int32.max))
        #expect(MultiSeatPriceTier(price: 1, quantity: -1).amount == nil)
        #expect(MultiSeatPriceTier.totalAmount(of: [MultiSeatPriceTier(price: .max, quantity: 1), MultiSeatPriceTier(price: 0, quantity: 9)]) == .max)
        #expect(MultiSeatPriceTier.totalAmount(of: [MultiSeatPriceTier(price: .max, quantity: 1), MultiSeatPriceTier(price: 1, quantity: 1)]) == nil)
        #expect(MultiSeatPriceTier.totalAmount(of: []) == nil)
    }

    @Test(arguments: [#""priceTiers":"5x9990""#, #""priceTiers":{"price":9990}"#, #""priceTiers":7"#])
    func priceTiersThatAreNotAListReadAsAbsent(member: String) throws {
        let json = #"{"multiSeatInfo":{"invitationManagement":"APPLE",\#(member)},"price":9240,"quantity":8}"#
        let transaction = try Example.decode(json)
        #expect(transaction.multiSeatInfo == TransactionMultiSeatInfo(invitationManagement: .apple))
        #expect(transaction.chargedAmount == nil)
    }

    @Test(arguments: ["true", "5", #""APPLE""#, "[]"])
    func aMultiSeatInfoThatIsNotAnObjectReadsAsEmpty(value: String) throws {
        let transaction = try Example.decode(#"{"multiSeatInfo":\#(value),"price":9240,"quantity":8}"#)
        #expect(transaction.multiSeatInfo == TransactionMultiSeatInfo())
        #expect(transaction.isMultiSeat)
        #expect(transaction.seatCount == 8)
        #expect(transaction.chargedAmount == nil)
    }

    @Test func membersOfTheWrongTypeInsideMultiSeatInfoReadAsAbsent() throws {
        let json = Example.transaction(
            price: 9240, quantity: 8, tiers: Example.tier(9990, 5) + "," + Example.tier(7990, 3),
            inside: [#""additionalTransactionReason":1"#, #""revokedSeatQuantity":"2""#]
        ).replacingOccurrences(of: #""invitationManagement":"APPLE""#, with: #""invitationManagement":0"#)
        let transaction = try Example.decode(json)
        let seats = try #require(transaction.multiSeatInfo)
        #expect(seats.invitationManagement == nil)
        #expect(seats.additionalTransactionReason == nil)
        #expect(seats.revokedSeatQuantity == nil)
        #expect(seats.priceTiers == Example.purchaseTiers)
        #expect(transaction.chargedAmount == 73_920)
    }

    /// The top-level values are documented fields of the transaction: like every other, a value of
    /// the wrong JSON type there fails decoding (an unknown enumeration value does not).
    @Test(arguments: [#"{"revokedSeatQuantity":"2"}"#, #"{"additionalTransactionReason":1}"#, #"{"revokedSeatQuantity":2147483648}"#])
    func wrongTypesAtTheTopLevelFailLikeAnyDocumentedField(json: String) {
        #expect(throws: DecodingError.self) {
            try Example.decode(json)
        }
    }

    @Test(arguments: [Int32(0), -3])
    func aMultiSeatQuantityThatIsNotPositiveHasNoSeatCount(quantity: Int32) throws {
        let transaction = try Example.decode(Example.transaction(price: 0, quantity: quantity, tiers: Example.tier(9990, 1)))
        #expect(transaction.seatCount == nil)
        var withoutQuantity = transaction
        withoutQuantity.quantity = nil
        #expect(withoutQuantity.seatCount == nil)
    }
}

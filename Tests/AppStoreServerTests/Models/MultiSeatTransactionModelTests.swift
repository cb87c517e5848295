import AppStoreServer
import Foundation
import Testing

/// Multiseat transactions: the worked example in both tier spellings and both placements of the
/// values whose placement is not confirmed, the seat helpers, and the round trip.
@Suite("Multiseat transaction model")
struct MultiSeatTransactionModelTests {
    typealias Example = MultiSeatExample

    @Test(arguments: Example.Spelling.allCases)
    func decodesThePurchase(spelling: Example.Spelling) throws {
        let purchase = try Example.decode(Example.purchase(spelling))
        #expect(purchase.quantity == 8)
        #expect(purchase.price == 9240)
        #expect(purchase.currency == "USD")
        let seats = try #require(purchase.multiSeatInfo)
        #expect(seats == TransactionMultiSeatInfo(invitationManagement: .apple, priceTiers: Example.purchaseTiers))
        #expect(purchase.isMultiSeat)
        #expect(purchase.seatCount == 8)
        #expect(purchase.chargedAmount == 73_920)
        #expect(purchase.resolvedAdditionalTransactionReason == nil)
        #expect(purchase.resolvedRevokedSeatQuantity == nil)
    }

    @Test(arguments: Example.Spelling.allCases, Example.Placement.allCases)
    func decodesTheSeatAddition(spelling: Example.Spelling, placement: Example.Placement) throws {
        let addition = try Example.decode(Example.seatAddition(spelling, reasonAt: placement))
        #expect(addition.quantity == 4)
        #expect(addition.price == 6990)
        #expect(addition.multiSeatInfo?.priceTiers == Example.additionTiers)
        #expect(addition.chargedAmount == 27_960)
        #expect(addition.seatCount == 4)
        #expect(addition.resolvedAdditionalTransactionReason == .seatAddition)
        // The raw placement is kept as it arrived.
        let topLevel: AdditionalTransactionReason? = placement == .topLevel ? .seatAddition : nil
        let inside: AdditionalTransactionReason? = placement == .insideMultiSeatInfo ? .seatAddition : nil
        #expect(addition.additionalTransactionReason == topLevel)
        #expect(addition.multiSeatInfo?.additionalTransactionReason == inside)
    }

    @Test func thePeriodIsTheSumOfItsTransactions() throws {
        let period = try [Example.purchase(), Example.seatAddition(.typeName, reasonAt: .insideMultiSeatInfo)].map(Example.decode)
        let charged = try period.map { try #require($0.chargedAmount) }
        let seats = try period.map { try #require($0.seatCount) }
        #expect(charged == [73_920, 27_960])
        #expect(charged.reduce(0, +) == 101_880)
        #expect(seats.reduce(0, +) == 12)
    }

    @Test(arguments: Example.Placement.allCases)
    func readsRevokedSeatsAtEitherPlacement(placement: Example.Placement) throws {
        let purchase = try Example.decode(Example.purchase(revokedSeats: 2, at: placement))
        #expect(purchase.resolvedRevokedSeatQuantity == 2)
        #expect(purchase.revokedSeatQuantity == (placement == .topLevel ? 2 : nil))
        #expect(purchase.multiSeatInfo?.revokedSeatQuantity == (placement == .insideMultiSeatInfo ? 2 : nil))
        // The seats a refund took back are not subtracted, and the charge is the tiers' as signed.
        #expect(purchase.seatCount == 8)
        #expect(purchase.chargedAmount == 73_920)
    }

    @Test func whenBothPlacementsDifferEachValuePrefersItsDocumentedPlace() throws {
        let json = Example.transaction(
            price: 9240, quantity: 8, tiers: Example.tier(9990, 8),
            topLevel: [#""additionalTransactionReason":"SEAT_ADDITION""#, #""revokedSeatQuantity":1"#],
            inside: [#""additionalTransactionReason":"SOMETHING_NEWER""#, #""revokedSeatQuantity":3"#]
        )
        let transaction = try Example.decode(json)
        #expect(transaction.resolvedAdditionalTransactionReason == .seatAddition)
        #expect(transaction.resolvedRevokedSeatQuantity == 3)
        #expect(try ModelFixture.encode(transaction) == json)
    }

    @Test func tierOrderDoesNotChangeTheCharge() throws {
        let reversed = Example.transaction(price: 9240, quantity: 8, tiers: Example.tier(7990, 3) + "," + Example.tier(9990, 5))
        #expect(try Example.decode(reversed).chargedAmount == 73_920)
    }

    @Test func theChargeOfAMultiSeatPurchaseNeverFallsBackToThePrice() throws {
        var purchase = try Example.decode(Example.purchase())
        purchase.price = 1
        #expect(purchase.chargedAmount == 73_920)
        purchase.multiSeatInfo?.priceTiers = nil
        #expect(purchase.chargedAmount == nil)
        purchase.multiSeatInfo?.priceTiers = []
        #expect(purchase.chargedAmount == nil)
    }

    @Test func aSingleCustomerTransactionIsOneSeatChargedItsPrice() throws {
        let subscription = try Example.decode(#"{"currency":"USD","price":9990,"quantity":1,"type":"Auto-Renewable Subscription"}"#)
        #expect(subscription.isMultiSeat == false)
        #expect(subscription.seatCount == 1)
        #expect(subscription.chargedAmount == 9990)
        #expect(subscription.resolvedRevokedSeatQuantity == nil)
        let consumables = try Example.decode(#"{"price":2970,"quantity":3,"type":"Consumable"}"#)
        #expect(consumables.seatCount == 1)
        #expect(consumables.chargedAmount == 2970)
        #expect(JWSTransactionDecodedPayload().chargedAmount == nil)
        #expect(JWSTransactionDecodedPayload().seatCount == 1)
    }

    @Test(arguments: ["", #","multiSeatInfo":null"#])
    func anAbsentOrNullMultiSeatInfoIsNotMultiSeat(extra: String) throws {
        let transaction = try Example.decode(#"{"price":9990,"quantity":1"# + extra + "}")
        #expect(transaction.multiSeatInfo == nil)
        #expect(transaction.isMultiSeat == false)
    }

    @Test(arguments: Example.Spelling.allCases, Example.Placement.allCases)
    func roundTripsInTheProseSpelling(spelling: Example.Spelling, placement: Example.Placement) throws {
        let decoded = try Example.decode(Example.seatAddition(spelling, reasonAt: placement))
        let encoded = try ModelFixture.encode(decoded)
        // Tiers are written as `price` / `quantity` whichever spelling they arrived in; the
        // placement of the reason is kept.
        #expect(encoded == Example.seatAddition(.prose, reasonAt: placement))
        #expect(try Example.decode(encoded) == decoded)
    }

    @Test func encodesTheNewFieldsAndOmitsAbsentOnes() throws {
        let transaction = JWSTransactionDecodedPayload(
            quantity: 4, price: 6990,
            multiSeatInfo: TransactionMultiSeatInfo(invitationManagement: .developer, priceTiers: [MultiSeatPriceTier(price: 6990, quantity: 4)]),
            additionalTransactionReason: .seatAddition, revokedSeatQuantity: 1
        )
        #expect(try ModelFixture.encode(transaction) == #"{"additionalTransactionReason":"SEAT_ADDITION","multiSeatInfo":{"invitationManagement":"DEVELOPER","priceTiers":[{"price":6990,"quantity":4}]},"price":6990,"quantity":4,"revokedSeatQuantity":1}"#)
        #expect(try ModelFixture.encode(MultiSeatPriceTier()) == "{}")
    }

    @Test func anAssignedMemberRepeatsThePurchasersSeatsAndTiers() throws {
        let json = Example.transaction(price: 9240, quantity: 8, tiers: Example.tier(9990, 5) + "," + Example.tier(7990, 3),
                                       topLevel: [#""inAppOwnershipType":"ASSIGNED""#, #""revocationType":"ASSIGNMENT_REVOKE""#])
        let member = try Example.decode(json)
        #expect(member.inAppOwnershipType == .assigned)
        #expect(member.inAppOwnershipType?.isKnown == true)
        #expect(member.revocationType == .assignmentRevoke)
        #expect(member.revocationType?.isKnown == true)
        // The purchaser's charge, repeated: not a charge to the member.
        #expect(member.chargedAmount == 73_920)
        #expect(try ModelFixture.encode(member) == json)
    }
}

import AppStoreServer
import Foundation
import Testing

/// Multiseat renewal info, `UNCLAIM_SEATS` with `unclaimInfo`, and the seat subtypes.
@Suite("Multiseat renewal info and notifications")
struct MultiSeatRenewalAndNotificationModelTests {
    /// The example period renewing with its 12 seats: 5 × 9.99 + 5 × 7.99 + 2 × 5.99 = 101.88,
    /// 8.49 per seat on average.
    static func renewal(_ spelling: MultiSeatExample.Spelling) -> String {
        let tiers = [(9990, 5), (7990, 5), (5990, 2)].map { MultiSeatExample.tier($0.0, Int32($0.1), spelling) }
        return #"{"autoRenewStatus":1,"currency":"USD","multiSeatInfo":{"renewalPriceTiers":[\#(tiers.joined(separator: ","))]},"renewalBillingPlanType":"MONTHLY","renewalPrice":8490,"renewalQuantity":12}"#
    }

    @Test(arguments: MultiSeatExample.Spelling.allCases)
    func decodesAMultiSeatRenewal(spelling: MultiSeatExample.Spelling) throws {
        let info = try ModelFixture.decode(JWSRenewalInfoDecodedPayload.self, json: Self.renewal(spelling))
        #expect(info.renewalQuantity == 12)
        #expect(info.renewalPrice == 8490)
        #expect(info.renewalBillingPlanType == .monthly)
        #expect(info.multiSeatInfo == RenewalMultiSeatInfo(renewalPriceTiers: [
            MultiSeatPriceTier(price: 9990, quantity: 5), MultiSeatPriceTier(price: 7990, quantity: 5),
            MultiSeatPriceTier(price: 5990, quantity: 2),
        ]))
        #expect(info.isMultiSeat)
        #expect(info.renewalAmount == 101_880)
        #expect(info.renewalSeats == 12)
        let encoded = try ModelFixture.encode(info)
        #expect(encoded == Self.renewal(.prose))
        #expect(try ModelFixture.decode(JWSRenewalInfoDecodedPayload.self, json: encoded) == info)
    }

    @Test func aSingleCustomerRenewalIsChargedItsRenewalPrice() throws {
        let info = try ModelFixture.decode(JWSRenewalInfoDecodedPayload.self, json: #"{"currency":"USD","renewalPrice":9990}"#)
        #expect(info.isMultiSeat == false)
        #expect(info.renewalAmount == 9990)
        #expect(info.renewalSeats == nil)
    }

    @Test func untrustworthyRenewalTiersGiveNoAmount() throws {
        let overflow = #"{"multiSeatInfo":{"renewalPriceTiers":[{"price":9223372036854775807,"quantity":2}]},"renewalPrice":9990,"renewalQuantity":0}"#
        let info = try ModelFixture.decode(JWSRenewalInfoDecodedPayload.self, json: overflow)
        #expect(info.renewalAmount == nil)
        #expect(info.renewalSeats == nil)
        let notAnObject = try ModelFixture.decode(JWSRenewalInfoDecodedPayload.self, json: #"{"multiSeatInfo":[1],"renewalPrice":9990}"#)
        #expect(notAnObject.multiSeatInfo == RenewalMultiSeatInfo())
        #expect(notAnObject.renewalAmount == nil)
        var negative = info
        negative.renewalQuantity = -1
        #expect(negative.renewalSeats == nil)
    }

    @Test func decodesUnclaimSeatsWithoutData() throws {
        let json = #"{"notificationType":"UNCLAIM_SEATS","notificationUUID":"u","signedDate":1698148900000,"unclaimInfo":{"unclaimSeatIds":["6f1c2a7e-0b55-4b8e-9d3a-2f4c8e1a9b10","B2D4F6A8-1C3E-4A5B-8D7F-9E0A1B2C3D4E"]},"version":"2.0"}"#
        let payload = try ModelFixture.decode(ResponseBodyV2DecodedPayload.self, json: json)
        #expect(payload.notificationType == .unclaimSeats)
        #expect(payload.notificationType?.isKnown == true)
        #expect(payload.data == nil)
        // Kept exactly as written, lower case included.
        #expect(payload.unclaimInfo?.unclaimSeatIds == ["6f1c2a7e-0b55-4b8e-9d3a-2f4c8e1a9b10", "B2D4F6A8-1C3E-4A5B-8D7F-9E0A1B2C3D4E"])
        #expect(try ModelFixture.encode(payload) == json)
    }

    @Test func decodesUnclaimSeatsWithData() throws {
        let json = #"{"data":{"bundleId":"com.example","environment":"Sandbox"},"notificationType":"UNCLAIM_SEATS","unclaimInfo":{"unclaimSeatIds":[]}}"#
        let payload = try ModelFixture.decode(ResponseBodyV2DecodedPayload.self, json: json)
        #expect(payload.data?.bundleId == "com.example")
        #expect(payload.unclaimInfo == UnclaimInfo(unclaimSeatIds: []))
        #expect(try ModelFixture.encode(payload) == json)
    }

    @Test(arguments: [
        (#"{"unclaimSeatIds":["a",7]}"#, UnclaimInfo()),
        (#"{"unclaimSeatIds":"a"}"#, UnclaimInfo()),
        (#""a""#, UnclaimInfo()),
        ("null", nil),
    ])
    func anUnexpectedUnclaimInfoNeverFailsTheNotification(unclaimInfo: String, expected: UnclaimInfo?) throws {
        let json = #"{"notificationType":"UNCLAIM_SEATS","unclaimInfo":\#(unclaimInfo)}"#
        let payload = try ModelFixture.decode(ResponseBodyV2DecodedPayload.self, json: json)
        #expect(payload.notificationType == .unclaimSeats)
        #expect(payload.unclaimInfo == expected)
    }

    /// Which notification types carry the quantity subtypes is not confirmed; decoding does not
    /// depend on the pairing.
    @Test(arguments: [
        ("REFUND", "SEATS", Subtype.seats),
        ("DID_CHANGE_RENEWAL_PREF", "INCREASE_QUANTITY", .increaseQuantity),
        ("DID_CHANGE_RENEWAL_PREF", "DECREASE_QUANTITY", .decreaseQuantity),
    ])
    func decodesTheSeatSubtypes(type: String, subtype: String, expected: Subtype) throws {
        let json = #"{"data":{"bundleId":"com.example"},"notificationType":"\#(type)","subtype":"\#(subtype)"}"#
        let payload = try ModelFixture.decode(ResponseBodyV2DecodedPayload.self, json: json)
        #expect(payload.subtype == expected)
        #expect(payload.subtype?.isKnown == true)
        #expect(payload.notificationType?.isKnown == true)
        #expect(try ModelFixture.encode(payload) == json)
    }
}

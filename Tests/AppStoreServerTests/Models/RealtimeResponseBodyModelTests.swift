import AppStoreServer
import Foundation
import Testing

/// The realtime answer's wire shape: exactly one option, UUIDs in lower case, V1 and V2
/// signatures mutually exclusive.
@Suite struct RealtimeResponseBodyModelTests {
    static let message = UUID(uuidString: "A5B3C2D1-0000-4000-8000-000000000001")!

    @Test func fallbackIsAnEmptyObject() throws {
        #expect(try ModelFixture.encode(RealtimeResponseBody.fallback) == "{}")
        #expect(try ModelFixture.decode(RealtimeResponseBody.self, json: "{}") == .fallback)
    }

    @Test func messageOption() throws {
        let body = RealtimeResponseBody.message(.init(messageIdentifier: Self.message))
        #expect(try ModelFixture.encode(body) == #"{"message":{"messageIdentifier":"a5b3c2d1-0000-4000-8000-000000000001"}}"#)
        #expect(body.messageIdentifier == Self.message)
    }

    @Test func alternateProductOptionWithAndWithoutBillingPlan() throws {
        let monthly = RealtimeResponseBody.alternateProduct(.init(
            messageIdentifier: Self.message, productId: "com.example.annual", billingPlanType: .monthly))
        #expect(try ModelFixture.encode(monthly) == #"{"alternateProduct":{"billingPlanType":"MONTHLY","messageIdentifier":"a5b3c2d1-0000-4000-8000-000000000001","productId":"com.example.annual"}}"#)
        let plain = RealtimeResponseBody.alternateProduct(.init(messageIdentifier: Self.message, productId: "com.example.annual"))
        #expect(try ModelFixture.encode(plain) == #"{"alternateProduct":{"messageIdentifier":"a5b3c2d1-0000-4000-8000-000000000001","productId":"com.example.annual"}}"#)
        #expect(try ModelFixture.decode(RealtimeResponseBody.self, json: ModelFixture.encode(monthly)) == monthly)
    }

    @Test func promotionalOfferV2() throws {
        let body = RealtimeResponseBody.promotionalOffer(.init(messageIdentifier: Self.message, signature: .v2("h.p.s")))
        #expect(try ModelFixture.encode(body) == #"{"promotionalOffer":{"messageIdentifier":"a5b3c2d1-0000-4000-8000-000000000001","promotionalOfferSignatureV2":"h.p.s"}}"#)
        #expect(try ModelFixture.decode(RealtimeResponseBody.self, json: ModelFixture.encode(body)) == body)
    }

    @Test func promotionalOfferV1WritesLowerCaseUUIDs() throws {
        let v1 = PromotionalOfferSignatureV1(
            encodedSignature: "MEUCIQ==", productId: "com.example.monthly", nonce: UUID(uuidString: "B0B0B0B0-1111-4222-8333-444455556666")!,
            timestamp: 1_767_225_600_000, keyId: "KEY123", offerIdentifier: "save-50",
            appAccountToken: UUID(uuidString: "C0C0C0C0-1111-4222-8333-444455556666")!)
        let body = RealtimeResponseBody.promotionalOffer(.init(messageIdentifier: Self.message, signature: .v1(v1)))
        let json = try ModelFixture.encode(body)
        #expect(json.contains(#""nonce":"b0b0b0b0-1111-4222-8333-444455556666""#))
        #expect(json.contains(#""appAccountToken":"c0c0c0c0-1111-4222-8333-444455556666""#))
        #expect(!json.contains("promotionalOfferSignatureV2"))
        #expect(try ModelFixture.decode(RealtimeResponseBody.self, json: json) == body)
    }

    @Test(arguments: [
        #"{"message":{"messageIdentifier":"a5b3c2d1-0000-4000-8000-000000000001"},"alternateProduct":{"messageIdentifier":"a5b3c2d1-0000-4000-8000-000000000001","productId":"p"}}"#,
        #"{"promotionalOffer":{"messageIdentifier":"a5b3c2d1-0000-4000-8000-000000000001"}}"#,
        #"{"promotionalOffer":{"messageIdentifier":"a5b3c2d1-0000-4000-8000-000000000001","promotionalOfferSignatureV2":"a.b.c","promotionalOfferSignatureV1":{"encodedSignature":"x","productId":"p","nonce":"b0b0b0b0-1111-4222-8333-444455556666","timestamp":1,"keyId":"k","offerIdentifier":"o"}}}"#,
        #"{"message":{"messageIdentifier":"not-a-uuid"}}"#,
        #"{"advancedCommerceInfo":{"messageIdentifier":"a5b3c2d1-0000-4000-8000-000000000001"}}"#,
    ])
    func malformedAnswersDoNotDecode(json: String) {
        #expect(throws: DecodingError.self) { try ModelFixture.decode(RealtimeResponseBody.self, json: json) }
    }
}

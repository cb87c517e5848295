import AppStoreServer
import Crypto
import Foundation
import Testing

extension SigningTests {
    @Suite("introductory offer eligibility JWS")
    struct IntroductoryOfferEligibilitySignatureTests {
        static func creator() throws -> IntroductoryOfferEligibilitySignatureCreator {
            IntroductoryOfferEligibilitySignatureCreator(
                privateKey: try SigningFixtures.privateKey(), keyId: "keyId", issuerId: "issuerId",
                bundleId: "bundleId", clock: { SigningFixtures.fixedDate }
            )
        }

        static func verifier() throws -> IntroductoryOfferEligibilitySignatureVerifier {
            IntroductoryOfferEligibilitySignatureVerifier(
                publicKey: try SigningFixtures.publicKey(), keyId: "keyId", issuerId: "issuerId", bundleId: "bundleId"
            )
        }

        @Test func headerAndClaimsAreExact() throws {
            let jws = try Self.creator().createSignature(
                productId: "productId", allowIntroductoryOffer: true, transactionId: "transactionId",
                nonce: SigningFixtures.fixedNonce
            )
            let parts = try #require(CompactJWS(jws))
            #expect(String(decoding: parts.header, as: UTF8.self) == #"{"alg":"ES256","kid":"keyId","typ":"JWT"}"#)
            #expect(String(decoding: parts.payload, as: UTF8.self) ==
                #"{"allowIntroductoryOffer":true,"aud":"introductory-offer-eligibility","bid":"bundleId","#
                + #""iat":1698148900,"iss":"issuerId","nonce":"20fba8a0-2b80-4a7d-a17f-85c1854727f8","#
                + #""productId":"productId","transactionId":"transactionId"}"#)
        }

        @Test func verifiesWithApplePublicKey() throws {
            let jws = try Self.creator().createSignature(productId: "p", allowIntroductoryOffer: false, transactionId: "42")
            let claims = try Self.verifier().verify(jws)
            #expect(claims.allowIntroductoryOffer == false)
            #expect(claims.transactionId == "42")
            #expect(claims.aud == "introductory-offer-eligibility")
            #expect(claims.nonce == claims.nonce.lowercased())
        }

        static let header = #"{"alg":"ES256","kid":"keyId","typ":"JWT"}"#

        @Test func rejectsMissingTransactionId() throws {
            let jws = try SigningFixtures.signRaw(
                header: Self.header,
                payload: #"{"allowIntroductoryOffer":true,"aud":"introductory-offer-eligibility","bid":"bundleId","iat":1698148900,"iss":"issuerId","nonce":"20fba8a0-2b80-4a7d-a17f-85c1854727f8","productId":"p"}"#
            )
            #expect(throws: SignatureError.invalidClaim("transactionId")) { try Self.verifier().verify(jws) }
        }

        @Test func rejectsPromotionalOfferAudience() throws {
            let jws = try SigningFixtures.signRaw(
                header: Self.header,
                payload: #"{"allowIntroductoryOffer":true,"aud":"promotional-offer","bid":"bundleId","iat":1698148900,"iss":"issuerId","nonce":"20fba8a0-2b80-4a7d-a17f-85c1854727f8","productId":"p","transactionId":"1"}"#
            )
            #expect(throws: SignatureError.audienceMismatch) { try Self.verifier().verify(jws) }
        }

        @Test func rejectsPromotionalOfferSignature() throws {
            let promo = try PromotionalOfferV2SignatureCreator(
                privateKey: SigningFixtures.privateKey(), keyId: "keyId", issuerId: "issuerId", bundleId: "bundleId"
            ).createSignature(productId: "p", offerIdentifier: "o", transactionId: "1")
            #expect(throws: SignatureError.unexpectedClaim("offerIdentifier")) { try Self.verifier().verify(promo) }
        }

        @Test func rejectsWrongIssuer() throws {
            let jws = try IntroductoryOfferEligibilitySignatureCreator(
                privateKey: SigningFixtures.privateKey(), keyId: "keyId", issuerId: "someoneElse", bundleId: "bundleId"
            ).createSignature(productId: "p", allowIntroductoryOffer: true, transactionId: "1")
            #expect(throws: SignatureError.invalidClaim("iss")) { try Self.verifier().verify(jws) }
        }
    }
}

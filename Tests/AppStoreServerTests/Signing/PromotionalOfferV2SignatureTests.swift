import AppStoreServer
import Crypto
import Foundation
import Testing

extension SigningTests {
    @Suite("promotional offer V2 JWS")
    struct PromotionalOfferV2SignatureTests {
        static func creator() throws -> PromotionalOfferV2SignatureCreator {
            PromotionalOfferV2SignatureCreator(
                privateKey: try SigningFixtures.privateKey(), keyId: "keyId", issuerId: "issuerId",
                bundleId: "bundleId", clock: { SigningFixtures.fixedDate }
            )
        }

        static func verifier(publicKey: P256.Signing.PublicKey? = nil) throws -> PromotionalOfferV2SignatureVerifier {
            PromotionalOfferV2SignatureVerifier(
                publicKey: try publicKey ?? SigningFixtures.publicKey(), keyId: "keyId", issuerId: "issuerId", bundleId: "bundleId"
            )
        }

        @Test func headerAndClaimsAreExact() throws {
            let jws = try Self.creator().createSignature(
                productId: "productId", offerIdentifier: "offerIdentifier", transactionId: "transactionId",
                nonce: SigningFixtures.fixedNonce
            )
            let parts = try #require(CompactJWS(jws))
            #expect(String(decoding: parts.header, as: UTF8.self) == #"{"alg":"ES256","kid":"keyId","typ":"JWT"}"#)
            #expect(String(decoding: parts.payload, as: UTF8.self) ==
                #"{"aud":"promotional-offer","bid":"bundleId","iat":1698148900,"iss":"issuerId","#
                + #""nonce":"20fba8a0-2b80-4a7d-a17f-85c1854727f8","offerIdentifier":"offerIdentifier","#
                + #""productId":"productId","transactionId":"transactionId"}"#)
        }

        @Test func transactionIdIsOmittedWhenNilAndNonceIsFresh() throws {
            let creator = try Self.creator()
            let first = try #require(CompactJWS(try creator.createSignature(productId: "p", offerIdentifier: "o")))
            let second = try #require(CompactJWS(try creator.createSignature(productId: "p", offerIdentifier: "o")))
            let claims = try SigningFixtures.jsonObject(first.payload)
            #expect(claims["transactionId"] == nil)
            #expect(claims["exp"] == nil)
            #expect(Set(claims.keys) == ["aud", "bid", "iat", "iss", "nonce", "offerIdentifier", "productId"])
            let nonce = try #require(claims["nonce"] as? String)
            #expect(nonce == nonce.lowercased() && UUID(uuidString: nonce) != nil)
            #expect(nonce != (try SigningFixtures.jsonObject(second.payload))["nonce"] as? String)
        }

        @Test func verifiesWithApplePublicKeyAndReturnsClaims() throws {
            let jws = try Self.creator().createSignature(productId: "p", offerIdentifier: "o", transactionId: "2000000000000001")
            let claims = try Self.verifier().verify(jws)
            #expect(claims.productId == "p")
            #expect(claims.offerIdentifier == "o")
            #expect(claims.transactionId == "2000000000000001")
            #expect(claims.iat == 1_698_148_900)
            #expect(claims.aud == "promotional-offer")
        }

        @Test func rejectsSignatureFromAnotherKey() throws {
            let jws = try Self.creator().createSignature(productId: "p", offerIdentifier: "o")
            #expect(throws: SignatureError.invalidSignature) {
                try Self.verifier(publicKey: P256.Signing.PrivateKey().publicKey).verify(jws)
            }
        }

        static let header = #"{"alg":"ES256","kid":"keyId","typ":"JWT"}"#
        static let claims = #""bid":"bundleId","iat":1698148900,"iss":"issuerId","nonce":"20fba8a0-2b80-4a7d-a17f-85c1854727f8","offerIdentifier":"o","productId":"p""#

        @Test func rejectsExpClaim() throws {
            let jws = try SigningFixtures.signRaw(header: Self.header, payload: #"{"aud":"promotional-offer","exp":1698149200,"# + Self.claims + "}")
            #expect(throws: SignatureError.unexpectedClaim("exp")) { try Self.verifier().verify(jws) }
        }

        @Test func rejectsWrongAudience() throws {
            let jws = try SigningFixtures.signRaw(header: Self.header, payload: #"{"aud":"appstoreconnect-v1","# + Self.claims + "}")
            #expect(throws: SignatureError.audienceMismatch) { try Self.verifier().verify(jws) }
        }

        @Test func rejectsUppercaseNonce() throws {
            let jws = try SigningFixtures.signRaw(
                header: Self.header,
                payload: #"{"aud":"promotional-offer","# + Self.claims.replacingOccurrences(of: "20fba8a0", with: "20FBA8A0") + "}"
            )
            #expect(throws: SignatureError.invalidClaim("nonce")) { try Self.verifier().verify(jws) }
        }

        @Test func rejectsFractionalIat() throws {
            let jws = try SigningFixtures.signRaw(
                header: Self.header,
                payload: #"{"aud":"promotional-offer","# + Self.claims.replacingOccurrences(of: "1698148900", with: "1698148900.5") + "}"
            )
            #expect(throws: SignatureError.invalidClaim("iat")) { try Self.verifier().verify(jws) }
        }

        @Test func rejectsWrongKeyId() throws {
            let jws = try SigningFixtures.signRaw(
                header: #"{"alg":"ES256","kid":"otherKey","typ":"JWT"}"#, payload: #"{"aud":"promotional-offer","# + Self.claims + "}"
            )
            #expect(throws: SignatureError.keyIdMismatch) { try Self.verifier().verify(jws) }
        }

        @Test func rejectsAlgorithmOtherThanES256() throws {
            let jws = try SigningFixtures.signRaw(
                header: #"{"alg":"HS256","kid":"keyId","typ":"JWT"}"#, payload: #"{"aud":"promotional-offer","# + Self.claims + "}"
            )
            #expect(throws: SignatureError.unsupportedAlgorithm("HS256")) { try Self.verifier().verify(jws) }
        }

        @Test func rejectsMissingTyp() throws {
            let jws = try SigningFixtures.signRaw(
                header: #"{"alg":"ES256","kid":"keyId"}"#, payload: #"{"aud":"promotional-offer","# + Self.claims + "}"
            )
            #expect(throws: SignatureError.typeMismatch) { try Self.verifier().verify(jws) }
        }

        @Test func rejectsWrongBundleId() throws {
            let jws = try SigningFixtures.signRaw(
                header: Self.header,
                payload: #"{"aud":"promotional-offer","# + Self.claims.replacingOccurrences(of: "bundleId", with: "com.other") + "}"
            )
            #expect(throws: SignatureError.invalidClaim("bid")) { try Self.verifier().verify(jws) }
        }

        @Test func rejectsTamperedPayload() throws {
            let jws = try Self.creator().createSignature(productId: "p", offerIdentifier: "o")
            let parts = jws.split(separator: ".").map(String.init)
            let forged = Base64URL.encode(Data(#"{"aud":"promotional-offer","# .utf8) + Data((Self.claims + "}").utf8))
            #expect(throws: SignatureError.invalidSignature) {
                try Self.verifier().verify([parts[0], forged, parts[2]].joined(separator: "."))
            }
        }

        @Test func rejectsTextThatIsNotCompactJWS() throws {
            #expect(throws: SignatureError.malformed("not a compact JWS")) { try Self.verifier().verify("a.b") }
        }
    }
}

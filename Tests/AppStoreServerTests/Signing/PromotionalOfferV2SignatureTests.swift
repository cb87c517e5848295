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

        /// The test claims after `"aud":"promotional-offer"` (and any `extra` claims), with
        /// `original` replaced by `replacement` when given.
        static func payload(extra: String = "", replacing original: String = "", with replacement: String = "") -> String {
            let rest = original.isEmpty ? claims : claims.replacingOccurrences(of: original, with: replacement)
            return #"{"aud":"promotional-offer","# + extra + rest + "}"
        }

        /// Expects verifying a JWS over `header` and `payload`, signed with the test key, to throw `error`.
        static func expectRejected(
            _ error: SignatureError, header: String = header, payload: String, sourceLocation: SourceLocation = #_sourceLocation
        ) throws {
            let jws = try SigningFixtures.signRaw(header: header, payload: payload)
            #expect(throws: error, sourceLocation: sourceLocation) { try verifier().verify(jws) }
        }

        @Test func rejectsExpClaim() throws {
            try Self.expectRejected(.unexpectedClaim("exp"), payload: Self.payload(extra: #""exp":1698149200,"#))
        }

        @Test func rejectsWrongAudience() throws {
            try Self.expectRejected(.audienceMismatch, payload: #"{"aud":"appstoreconnect-v1","# + Self.claims + "}")
        }

        @Test func rejectsUppercaseNonce() throws {
            try Self.expectRejected(.invalidClaim("nonce"), payload: Self.payload(replacing: "20fba8a0", with: "20FBA8A0"))
        }

        @Test func rejectsFractionalIat() throws {
            try Self.expectRejected(.invalidClaim("iat"), payload: Self.payload(replacing: "1698148900", with: "1698148900.5"))
        }

        @Test func rejectsWrongKeyId() throws {
            try Self.expectRejected(.keyIdMismatch, header: #"{"alg":"ES256","kid":"otherKey","typ":"JWT"}"#, payload: Self.payload())
        }

        @Test func rejectsAlgorithmOtherThanES256() throws {
            try Self.expectRejected(
                .unsupportedAlgorithm("HS256"), header: #"{"alg":"HS256","kid":"keyId","typ":"JWT"}"#, payload: Self.payload())
        }

        @Test func rejectsMissingTyp() throws {
            try Self.expectRejected(.typeMismatch, header: #"{"alg":"ES256","kid":"keyId"}"#, payload: Self.payload())
        }

        @Test func rejectsWrongBundleId() throws {
            try Self.expectRejected(.invalidClaim("bid"), payload: Self.payload(replacing: "bundleId", with: "com.other"))
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

import AppStoreServer
import Crypto
import Foundation
import Testing

extension SigningTests {
    @Suite("V1 promotional offer creator and verifier")
    struct PromotionalOfferSignatureCreatorTests {
        static func creator() throws -> PromotionalOfferSignatureCreator {
            PromotionalOfferSignatureCreator(
                privateKey: try SigningFixtures.privateKey(), keyId: "ABCDEFGHIJ", bundleId: "com.example",
                clock: { SigningFixtures.fixedDate }
            )
        }

        static func verifier() throws -> PromotionalOfferSignatureVerifier {
            PromotionalOfferSignatureVerifier(publicKey: try SigningFixtures.publicKey(), bundleId: "com.example")
        }

        @Test func defaultsToClockTimestampInMillisecondsAndFreshLowercaseNonce() throws {
            let creator = try Self.creator()
            let first = try creator.createSignature(productId: "com.example.monthly", offerId: "promo50")
            let second = try creator.createSignature(productId: "com.example.monthly", offerId: "promo50")
            #expect(first.timestamp == 1_698_148_900_750)
            #expect(first.nonce == first.nonce.lowercased())
            #expect(UUID(uuidString: first.nonce) != nil)
            #expect(first.nonce != second.nonce)
            try Self.verifier().verify(first, productId: "com.example.monthly", offerId: "promo50", appAccountToken: "")
        }

        @Test func appAccountTokenIsLowercasedInThePayload() throws {
            let token = "7E3FB20B-4CDB-47CC-936D-99D65F608138"
            let signature = try Self.creator().createSignature(
                productId: "com.example.monthly", offerId: "promo50", appAccountToken: token
            )
            // Verifying with the lowercase form succeeds because both sides lowercase it.
            try Self.verifier().verify(signature, productId: "com.example.monthly", offerId: "promo50", appAccountToken: token.lowercased())
        }

        @Test func verifierRejectsUppercaseNonce() throws {
            var signature = try Self.creator().createSignature(productId: "p", offerId: "o")
            signature.nonce = signature.nonce.uppercased()
            #expect(throws: SignatureError.invalidClaim("nonce")) {
                try Self.verifier().verify(signature, productId: "p", offerId: "o", appAccountToken: "")
            }
        }

        @Test func verifierRejectsURLSafeBase64() throws {
            let vector = PromotionalOfferV1Vector.all[0]
            let urlSafe = vector.signature.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            try #require(urlSafe != vector.signature)
            let verifier = PromotionalOfferSignatureVerifier(publicKey: try SigningFixtures.publicKey(), bundleId: vector.bundleId)
            #expect(throws: SignatureError.malformed("signature is not standard Base64")) {
                try verifier.verify(
                    signature: urlSafe, keyId: vector.keyId, productId: vector.productId, offerId: vector.offerId,
                    appAccountToken: vector.appAccountToken, nonce: vector.nonce, timestamp: vector.timestamp
                )
            }
        }

        @Test func verifierRejectsRawJOSESignatureInsteadOfDER() throws {
            let vector = PromotionalOfferV1Vector.all[0]
            let der = try #require(Data(base64Encoded: vector.signature))
            let raw = try P256.Signing.ECDSASignature(derRepresentation: der).rawRepresentation.base64EncodedString()
            let verifier = PromotionalOfferSignatureVerifier(publicKey: try SigningFixtures.publicKey(), bundleId: vector.bundleId)
            #expect(throws: SignatureError.malformed("signature is not an ASN.1 DER ECDSA signature")) {
                try verifier.verify(
                    signature: raw, keyId: vector.keyId, productId: vector.productId, offerId: vector.offerId,
                    appAccountToken: vector.appAccountToken, nonce: vector.nonce, timestamp: vector.timestamp
                )
            }
        }

        @Test func separatorIsInvisibleSeparator() {
            #expect(Array(PromotionalOfferSignatureCreator.separator.utf8) == [0xE2, 0x81, 0xA3])
        }
    }
}

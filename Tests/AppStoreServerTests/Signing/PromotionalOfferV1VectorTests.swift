import AppStoreServer
import Crypto
import Foundation
import Testing

extension SigningTests {
    /// Apple's V1 promotional-offer vectors.
    @Suite("V1 promotional offer vectors")
    struct PromotionalOfferV1VectorTests {
        static func payload(_ v: PromotionalOfferV1Vector) -> Data {
            PromotionalOfferSignatureCreator.payload(
                bundleId: v.bundleId, keyId: v.keyId, productId: v.productId, offerId: v.offerId,
                appAccountToken: v.appAccountToken, nonce: v.nonce, timestamp: v.timestamp
            )
        }

        @Test func fixtureHasThreeVectors() {
            #expect(PromotionalOfferV1Vector.all.count == 3)
        }

        @Test(arguments: PromotionalOfferV1Vector.all)
        func payloadBytesMatchVector(_ vector: PromotionalOfferV1Vector) {
            let payload = Self.payload(vector)
            #expect(payload.signingTestHex == vector.payloadUTF8Hex)
            #expect(Data(SHA256.hash(data: payload)).signingTestHex == vector.payloadSHA256)
        }

        @Test(arguments: PromotionalOfferV1Vector.all)
        func verdictSignatureVerifiesWithApplePublicKey(_ vector: PromotionalOfferV1Vector) throws {
            let creator = PromotionalOfferSignatureCreator(
                privateKey: try SigningFixtures.privateKey(), keyId: vector.keyId, bundleId: vector.bundleId
            )
            let result = try creator.createSignature(
                productId: vector.productId, offerId: vector.offerId, appAccountToken: vector.appAccountToken,
                nonce: UUID(uuidString: vector.nonce)!, timestamp: vector.timestamp
            )
            #expect(result.keyIdentifier == vector.keyId)
            #expect(result.nonce == vector.nonce.lowercased())
            #expect(result.timestamp == vector.timestamp)

            // Independently of Verdict's verifier: standard Base64 with padding of a DER signature
            // over exactly the vector's payload bytes.
            #expect(result.signature.count % 4 == 0)
            #expect(!result.signature.contains("-") && !result.signature.contains("_"))
            let der = try #require(Data(base64Encoded: result.signature))
            let signature = try P256.Signing.ECDSASignature(derRepresentation: der)
            let payload = try #require(Data(signingTestHex: vector.payloadUTF8Hex))
            #expect(try SigningFixtures.publicKey().isValidSignature(signature, for: payload))
        }

        @Test(arguments: PromotionalOfferV1Vector.all)
        func vectorSignatureVerifiesWithVerdictVerifier(_ vector: PromotionalOfferV1Vector) throws {
            let verifier = PromotionalOfferSignatureVerifier(publicKey: try SigningFixtures.publicKey(), bundleId: vector.bundleId)
            try verifier.verify(
                signature: vector.signature, keyId: vector.keyId, productId: vector.productId,
                offerId: vector.offerId, appAccountToken: vector.appAccountToken, nonce: vector.nonce,
                timestamp: vector.timestamp
            )
        }

        enum TamperedField: String, CaseIterable, Sendable {
            case bundleId, keyId, productId, offerId, appAccountToken, nonce, timestamp
        }

        @Test(arguments: TamperedField.allCases)
        func tamperedFieldFailsVerification(_ field: TamperedField) throws {
            let v = PromotionalOfferV1Vector.all[0]
            let verifier = PromotionalOfferSignatureVerifier(
                publicKey: try SigningFixtures.publicKey(),
                bundleId: field == .bundleId ? v.bundleId + "x" : v.bundleId
            )
            #expect(throws: SignatureError.invalidSignature) {
                try verifier.verify(
                    signature: v.signature,
                    keyId: field == .keyId ? "keyID" : v.keyId,
                    productId: field == .productId ? v.productId + "2" : v.productId,
                    offerId: field == .offerId ? "offerId " : v.offerId,
                    appAccountToken: field == .appAccountToken ? "" : v.appAccountToken,
                    nonce: field == .nonce ? "20fba8a0-2b80-4a7d-a17f-85c1854727f9" : v.nonce,
                    timestamp: field == .timestamp ? v.timestamp + 1 : v.timestamp
                )
            }
        }

        @Test func signatureFromAnotherKeyFails() throws {
            let v = PromotionalOfferV1Vector.all[1]
            let verifier = PromotionalOfferSignatureVerifier(publicKey: P256.Signing.PrivateKey().publicKey, bundleId: v.bundleId)
            #expect(throws: SignatureError.invalidSignature) {
                try verifier.verify(
                    signature: v.signature, keyId: v.keyId, productId: v.productId, offerId: v.offerId,
                    appAccountToken: v.appAccountToken, nonce: v.nonce, timestamp: v.timestamp
                )
            }
        }
    }
}

import AppStoreServer
import AppStoreSimulator
import Crypto
import Foundation
import Testing

extension VerificationTests {
    /// Malformed or hostile JWS structure: each case is rejected with its own code.
    @Suite struct JWSFormatRejectionTests {
        let pki: SimulatorPKI
        let verifier: SignedDataVerifier

        init() throws {
            pki = try TestValues.pki()
            verifier = try TestValues.verifier(root: pki.rootCertificateDER)
        }

        private func validJWS() throws -> String {
            try pki.signer().sign(TestValues.notification())
        }

        private func signed(headerAlg alg: String?, x5c: [String]?) throws -> String {
            let payload = try AppStoreJSON.encoder().encode(TestValues.notification())
            return try pki.signer().sign(payloadJSON: payload, headerJSON: JWSSurgery.header(alg: alg, x5c: x5c))
        }

        @Test func theValidControlVerifies() async throws {
            let verified = try await verifier.verifyNotification(validJWS())
            #expect(verified.payload.data?.bundleId == TestValues.bundleId)
        }

        @Test func twoSegmentsAreNotAJWS() async throws {
            let parts = JWSSurgery.segments(try validJWS())
            await expectVerificationError("INVALID_JWS") { try await verifier.verifyNotification(parts[0] + "." + parts[1]) }
        }

        @Test func fourSegmentsAreNotAJWS() async throws {
            let jws = try validJWS() + ".AAAA"
            await expectVerificationError("INVALID_JWS") { try await verifier.verifyNotification(jws) }
        }

        @Test func anEmptyStringIsNotAJWS() async {
            await expectVerificationError("INVALID_JWS") { try await verifier.verifyNotification("") }
        }

        @Test func nonBase64URLCharactersAreRejected() async throws {
            var parts = JWSSurgery.segments(try validJWS())
            parts[1] = "eyJ!!!" + parts[1]
            let jws = parts.joined(separator: ".")
            await expectVerificationError("INVALID_JWS") { try await verifier.verifyNotification(jws) }
        }

        @Test func aHeaderThatIsNotJSONIsRejected() async throws {
            let jws = JWSSurgery.replacing(try validJWS(), segment: 0, with: Data("not json".utf8))
            await expectVerificationError("INVALID_JWS") { try await verifier.verifyNotification(jws) }
        }

        @Test func algNoneIsUnsupported() async throws {
            let jws = try signed(headerAlg: "none", x5c: pki.signer().x5c)
            await expectVerificationError("UNSUPPORTED_ALGORITHM") { try await verifier.verifyNotification(jws) }
        }

        @Test func unsignedAlgNoneWithEmptySignatureIsRejected() async throws {
            let header = try JWSSurgery.header(alg: "none", x5c: pki.signer().x5c)
            let payload = try AppStoreJSON.encoder().encode(TestValues.notification())
            let jws = Base64URL.encode(header) + "." + Base64URL.encode(payload) + "."
            await expectVerificationError("INVALID_JWS") { try await verifier.verifyNotification(jws) }
        }

        @Test func hs256IsUnsupported() async throws {
            let jws = try signed(headerAlg: "HS256", x5c: pki.signer().x5c)
            await expectVerificationError("UNSUPPORTED_ALGORITHM") { try await verifier.verifyNotification(jws) }
        }

        @Test func rs256IsUnsupported() async throws {
            let jws = try signed(headerAlg: "RS256", x5c: pki.signer().x5c)
            await expectVerificationError("UNSUPPORTED_ALGORITHM") { try await verifier.verifyNotification(jws) }
        }

        @Test func lowercaseEs256IsUnsupported() async throws {
            let jws = try signed(headerAlg: "es256", x5c: pki.signer().x5c)
            await expectVerificationError("UNSUPPORTED_ALGORITHM") { try await verifier.verifyNotification(jws) }
        }

        @Test func aMissingAlgIsUnsupported() async throws {
            let jws = try signed(headerAlg: nil, x5c: pki.signer().x5c)
            let error = await expectVerificationError("UNSUPPORTED_ALGORITHM") { try await verifier.verifyNotification(jws) }
            #expect(error == .unsupportedAlgorithm(nil))
        }

        @Test func aTamperedHeaderBreaksTheSignature() async throws {
            let jws = try validJWS()
            var header = try JWSSurgery.headerObject(jws)
            header["kid"] = "attacker"
            let tampered = JWSSurgery.replacing(
                jws, segment: 0, with: try JSONSerialization.data(withJSONObject: header, options: .withoutEscapingSlashes)
            )
            await expectVerificationError("INVALID_SIGNATURE") { try await verifier.verifyNotification(tampered) }
        }

        @Test func aTamperedPayloadBreaksTheSignature() async throws {
            let forged = try AppStoreJSON.encoder().encode(TestValues.notification(bundleId: TestValues.bundleId, appAppleId: 4321))
            let tampered = JWSSurgery.replacing(try validJWS(), segment: 1, with: forged)
            await expectVerificationError("INVALID_SIGNATURE") { try await verifier.verifyNotification(tampered) }
        }

        @Test func aSignatureOfTheWrongLengthIsRejected() async throws {
            let jws = try validJWS()
            let signature = try #require(Base64URL.decode(JWSSurgery.segments(jws)[2]))
            let shortened = JWSSurgery.replacing(jws, segment: 2, with: signature.dropLast())
            await expectVerificationError("INVALID_SIGNATURE") { try await verifier.verifyNotification(shortened) }
        }

        @Test func aDEREncodedSignatureIsRejected() async throws {
            let jws = try validJWS()
            let parts = JWSSurgery.segments(jws)
            let der = try pki.leafKey.signature(for: Data("\(parts[0]).\(parts[1])".utf8)).derRepresentation
            let derJWS = JWSSurgery.replacing(jws, segment: 2, with: der)
            await expectVerificationError("INVALID_SIGNATURE") { try await verifier.verifyNotification(derJWS) }
        }

        @Test func aSignatureByAnotherKeyIsRejected() async throws {
            let payload = try AppStoreJSON.encoder().encode(TestValues.notification())
            let jws = try CompactJWS.signES256(
                header: pki.signer().headerJSON, payload: payload, key: P256.Signing.PrivateKey()
            )
            await expectVerificationError("INVALID_SIGNATURE") { try await verifier.verifyNotification(jws) }
        }

        @Test func aSignedPayloadThatIsNotJSONIsRejected() async throws {
            let jws = try pki.signer().sign(payloadJSON: Data("this is not json".utf8))
            await expectVerificationError("INVALID_PAYLOAD") { try await verifier.verifyNotification(jws) }
        }

        @Test func aSignedPayloadWithWrongTypesIsRejected() async throws {
            let jws = try pki.signer().sign(
                payloadJSON: Data(#"{"data":{"appAppleId":"blue","bundleId":"com.example","environment":"Sandbox"}}"#.utf8)
            )
            let error = await expectVerificationError("INVALID_PAYLOAD") { try await verifier.verifyNotification(jws) }
            #expect(error?.message.contains("data.appAppleId") == true)
        }

        @Test func aSignedJSONArrayIsRejected() async throws {
            let jws = try pki.signer().sign(payloadJSON: Data("[1,2,3]".utf8))
            await expectVerificationError("INVALID_PAYLOAD") { try await verifier.verifyNotification(jws) }
        }
    }
}

import AppStoreServer
import AppStoreSimulator
import Crypto
import Foundation
import Testing
import X509

extension VerificationTests {
    /// Certificate chains that must not be trusted.
    @Suite struct ChainRejectionTests {
        private func payloadJSON(signedDate: Date = TestValues.signedDate) throws -> Data {
            try AppStoreJSON.encoder().encode(TestValues.notification(signedDate: signedDate))
        }

        private func sign(_ pki: SimulatorPKI, x5c: [String]) throws -> String {
            try pki.signer().sign(payloadJSON: payloadJSON(), headerJSON: JWSSurgery.header(alg: "ES256", x5c: x5c))
        }

        @Test func aChainUnderAnotherRootIsRejected() async throws {
            let trusted = try TestValues.pki()
            let other = try TestValues.pki()
            let verifier = try TestValues.verifier(root: trusted.rootCertificateDER)
            await expectVerificationError("INVALID_CHAIN") {
                try await verifier.verifyNotification(other.signer().sign(TestValues.notification()))
            }
        }

        @Test func anAttackerRootInX5cIsIgnored() async throws {
            let trusted = try TestValues.pki()
            let attacker = try TestValues.pki()
            let verifier = try TestValues.verifier(root: trusted.rootCertificateDER)
            // The attacker's complete chain, its own root included, is judged against the configured root.
            await expectVerificationError("INVALID_CHAIN") {
                try await verifier.verifyNotification(attacker.signer().sign(TestValues.notification()))
            }
            // A genuine leaf/intermediate with the attacker's root in x5c[2] still verifies: x5c[2] plays no part.
            let signer = trusted.signer()
            let swapped = [signer.x5c[0], signer.x5c[1], attacker.rootCertificateDER.base64EncodedString()]
            let verified = try await verifier.verifyNotification(sign(trusted, x5c: swapped))
            #expect(verified.payload.data?.bundleId == TestValues.bundleId)
        }

        @Test func anAttackerIntermediateUnderTheAttackerRootIsRejectedEvenWithTheTrustedRootInX5c() async throws {
            let trusted = try TestValues.pki()
            let attacker = try TestValues.pki()
            let verifier = try TestValues.verifier(root: trusted.rootCertificateDER)
            let x5c = [attacker.signer().x5c[0], attacker.signer().x5c[1], trusted.rootCertificateDER.base64EncodedString()]
            await expectVerificationError("INVALID_CHAIN") { try await verifier.verifyNotification(sign(attacker, x5c: x5c)) }
        }

        @Test func anIntermediateWithoutTheAppleMarkerIsRejected() async throws {
            let pki = try TestValues.pki { $0.includeIntermediateMarker = false }
            let verifier = try TestValues.verifier(root: pki.rootCertificateDER)
            await expectVerificationError("INVALID_CHAIN") {
                try await verifier.verifyNotification(pki.signer().sign(TestValues.notification()))
            }
        }

        @Test func aLeafWithoutTheReceiptSigningMarkerIsRejected() async throws {
            let pki = try TestValues.pki { $0.includeLeafMarker = false }
            let verifier = try TestValues.verifier(root: pki.rootCertificateDER)
            await expectVerificationError("INVALID_CHAIN") {
                try await verifier.verifyNotification(pki.signer().sign(TestValues.notification()))
            }
        }

        @Test func aChainExpiredAtTheSignedDateIsRejected() async throws {
            let pki = try TestValues.pki()
            let verifier = try TestValues.verifier(root: pki.rootCertificateDER)
            let afterExpiry = Date(appStoreMilliseconds: 2_082_758_400_000)  // 2036-01-01
            let jws = try pki.signer().sign(TestValues.notification(signedDate: afterExpiry))
            await expectVerificationError("INVALID_CHAIN") { try await verifier.verifyNotification(jws) }
        }

        @Test func aChainNotYetValidAtTheSignedDateIsRejected() async throws {
            let pki = try TestValues.pki()
            let verifier = try TestValues.verifier(root: pki.rootCertificateDER)
            let beforeIssue = Date(appStoreMilliseconds: 1_704_067_200_000)  // 2024-01-01
            let jws = try pki.signer().sign(TestValues.notification(signedDate: beforeIssue))
            await expectVerificationError("INVALID_CHAIN") { try await verifier.verifyNotification(jws) }
        }

        @Test func appleTestChainIsExpiredAfter2033() async throws {
            let verifier = try TestValues.verifier(root: AppleFixtures.testCA())
            let jws = try AppleFixtures.signer().sign(
                TestValues.notification(signedDate: Date(appStoreMilliseconds: 2_051_222_400_000))  // 2035
            )
            await expectVerificationError("INVALID_CHAIN") { try await verifier.verifyNotification(jws) }
        }

        @Test func twoCertificatesInX5cAreRejected() async throws {
            let pki = try TestValues.pki()
            let verifier = try TestValues.verifier(root: pki.rootCertificateDER)
            let jws = try sign(pki, x5c: Array(pki.signer().x5c.prefix(2)))
            let error = await expectVerificationError("INVALID_CHAIN_LENGTH") { try await verifier.verifyNotification(jws) }
            #expect(error == .invalidChainLength(2))
        }

        @Test func fourCertificatesInX5cAreRejected() async throws {
            let pki = try TestValues.pki()
            let verifier = try TestValues.verifier(root: pki.rootCertificateDER)
            let jws = try sign(pki, x5c: pki.signer().x5c + [pki.rootCertificateDER.base64EncodedString()])
            let error = await expectVerificationError("INVALID_CHAIN_LENGTH") { try await verifier.verifyNotification(jws) }
            #expect(error == .invalidChainLength(4))
        }

        @Test func aMissingX5cIsRejected() async throws {
            let pki = try TestValues.pki()
            let verifier = try TestValues.verifier(root: pki.rootCertificateDER)
            let jws = try pki.signer().sign(payloadJSON: payloadJSON(), headerJSON: JWSSurgery.header(alg: "ES256", x5c: nil))
            let error = await expectVerificationError("INVALID_CHAIN_LENGTH") { try await verifier.verifyNotification(jws) }
            #expect(error == .invalidChainLength(nil))
        }

        @Test func anX5cEntryThatIsNotBase64IsRejected() async throws {
            let pki = try TestValues.pki()
            let verifier = try TestValues.verifier(root: pki.rootCertificateDER)
            var x5c = pki.signer().x5c
            x5c[0] = "not*base64*at*all"
            await expectVerificationError("INVALID_CERTIFICATE") { try await verifier.verifyNotification(sign(pki, x5c: x5c)) }
        }

        @Test func anX5cEntryThatIsNotDERIsRejected() async throws {
            let pki = try TestValues.pki()
            let verifier = try TestValues.verifier(root: pki.rootCertificateDER)
            var x5c = pki.signer().x5c
            x5c[1] = Data("definitely not a certificate".utf8).base64EncodedString()
            await expectVerificationError("INVALID_CERTIFICATE") { try await verifier.verifyNotification(sign(pki, x5c: x5c)) }
        }

        @Test func aP384LeafIsRejected() async throws {
            let pki = try TestValues.pki()
            let verifier = try TestValues.verifier(root: pki.rootCertificateDER)
            let p384Leaf = try pki.issueLeaf(
                publicKey: Certificate.PublicKey(P384.Signing.PrivateKey().publicKey), options: TestValues.simulatorOptions()
            )
            let x5c = [p384Leaf.base64EncodedString(), pki.signer().x5c[1], pki.signer().x5c[2]]
            let error = await expectVerificationError("INVALID_CHAIN") { try await verifier.verifyNotification(sign(pki, x5c: x5c)) }
            #expect(error?.message.contains("P-256") == true)
        }

        @Test func theLeafAsItsOwnIntermediateIsRejected() async throws {
            let pki = try TestValues.pki()
            let verifier = try TestValues.verifier(root: pki.rootCertificateDER)
            let x5c = [pki.signer().x5c[0], pki.signer().x5c[0], pki.signer().x5c[2]]
            await expectVerificationError("INVALID_CHAIN") { try await verifier.verifyNotification(sign(pki, x5c: x5c)) }
        }

        @Test func theRootUsedAsLeafIsRejected() async throws {
            let pki = try TestValues.pki()
            let verifier = try TestValues.verifier(root: pki.rootCertificateDER)
            let x5c = [pki.signer().x5c[2], pki.signer().x5c[1], pki.signer().x5c[2]]
            let payload = try payloadJSON()
            let jws = try CompactJWS.signES256(header: JWSSurgery.header(alg: "ES256", x5c: x5c), payload: payload, key: pki.rootKey)
            await expectVerificationError("INVALID_CHAIN") { try await verifier.verifyNotification(jws) }
        }
    }
}

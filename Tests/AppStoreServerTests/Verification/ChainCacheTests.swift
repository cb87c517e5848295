import AppStoreServer
import AppStoreSimulator
import Foundation
import Crypto
import X509
import Testing

extension VerificationTests {
    /// The verified-chain cache: reuse without re-validation, but never outside the chain's validity.
    @Suite struct ChainCacheTests {
        @Test func aSecondPayloadWithTheSameChainIsNotRevalidated() async throws {
            let pki = try TestValues.pki()
            let verifier = try TestValues.verifier(root: pki.rootCertificateDER)
            _ = try await verifier.verifyNotification(pki.signer().sign(TestValues.notification()))
            #expect(verifier.chainValidations == 1)
            _ = try await verifier.verifyTransaction(pki.signer().sign(TestValues.transaction()))
            #expect(verifier.chainValidations == 1)
            #expect(verifier.statistics.cacheHits == 1)
            #expect(verifier.statistics.cachedChains == 1)
        }

        @Test func aNotificationWithNestedPayloadsValidatesItsChainOnce() async throws {
            let pki = try TestValues.pki()
            let signer = pki.signer()
            let verifier = try TestValues.verifier(root: pki.rootCertificateDER)
            let renewal = JWSRenewalInfoDecodedPayload(signedDate: TestValues.signedDate, environment: .sandbox)
            let jws = try signer.sign(
                TestValues.notification(
                    signedTransactionInfo: signer.sign(TestValues.transaction()), signedRenewalInfo: signer.sign(renewal)
                )
            )
            _ = try await verifier.verifyNotification(jws)
            #expect(verifier.statistics == VerificationStatistics(chainValidations: 1, cacheHits: 2, cachedChains: 1))
        }

        @Test func aSignedDateOutsideTheCachedWindowIsStillRejected() async throws {
            let pki = try TestValues.pki {
                $0.leafNotValidBefore = Date(appStoreMilliseconds: 1_735_689_600_000)  // 2025-01-01
                $0.leafNotValidAfter = Date(appStoreMilliseconds: 1_782_864_000_000)  // 2026-07-01
            }
            let verifier = try TestValues.verifier(root: pki.rootCertificateDER)
            _ = try await verifier.verifyNotification(pki.signer().sign(TestValues.notification()))
            #expect(verifier.chainValidations == 1)

            // The root and intermediate are still valid in 2027, the leaf is not: the window is the intersection.
            let late = Date(appStoreMilliseconds: 1_798_761_600_000)  // 2027-01-01
            await expectVerificationError("INVALID_CHAIN") {
                try await verifier.verifyNotification(pki.signer().sign(TestValues.notification(signedDate: late)))
            }
            #expect(verifier.chainValidations == 2)
            #expect(verifier.statistics.cacheHits == 0)
        }

        @Test func aFailedValidationIsNotCached() async throws {
            let pki = try TestValues.pki { $0.includeLeafMarker = false }
            let verifier = try TestValues.verifier(root: pki.rootCertificateDER)
            for _ in 0..<2 {
                await expectVerificationError("INVALID_CHAIN") {
                    try await verifier.verifyNotification(pki.signer().sign(TestValues.notification()))
                }
            }
            #expect(verifier.chainValidations == 2)
            #expect(verifier.statistics.cachedChains == 0)
        }

        @Test func aCacheHitStillChecksTheSignature() async throws {
            let pki = try TestValues.pki()
            let verifier = try TestValues.verifier(root: pki.rootCertificateDER)
            let jws = try pki.signer().sign(TestValues.notification())
            _ = try await verifier.verifyNotification(jws)
            let forged = try AppStoreJSON.encoder().encode(TestValues.notification(appAppleId: 1))
            await expectVerificationError("INVALID_SIGNATURE") {
                try await verifier.verifyNotification(JWSSurgery.replacing(jws, segment: 1, with: forged))
            }
            #expect(verifier.chainValidations == 1)
        }

        @Test func theCacheIsBounded() async throws {
            let root = try TestValues.pki()
            let verifier = try SignedDataVerifier(
                rootCertificates: [root.rootCertificateDER], bundleId: TestValues.bundleId, appAppleId: nil,
                environments: [.sandbox], chainCacheCapacity: 2, now: { TestValues.now }
            )
            // Three leaves under one intermediate: three distinct chains.
            var signers: [AppStoreSigner] = []
            for _ in 0..<3 {
                let key = P256Key()
                let leaf = try root.issueLeaf(publicKey: key.certificatePublicKey, options: TestValues.simulatorOptions())
                signers.append(
                    AppStoreSigner(
                        privateKey: key.privateKey,
                        certificateChain: [leaf, root.intermediateCertificateDER, root.rootCertificateDER]
                    )
                )
            }
            for signer in signers {
                _ = try await verifier.verifyNotification(signer.sign(TestValues.notification()))
            }
            #expect(verifier.statistics.cachedChains == 2)
            // The first chain was evicted, the last one is still cached.
            _ = try await verifier.verifyNotification(signers[2].sign(TestValues.notification()))
            #expect(verifier.chainValidations == 3)
            _ = try await verifier.verifyNotification(signers[0].sign(TestValues.notification()))
            #expect(verifier.chainValidations == 4)
        }

        @Test func concurrentVerificationsAllSucceed() async throws {
            let pki = try TestValues.pki()
            let verifier = try TestValues.verifier(root: pki.rootCertificateDER)
            let jws = try pki.signer().sign(TestValues.notification())
            let verifiedCount = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<32 {
                    group.addTask { try await verifier.verifyNotification(jws).payload.data?.bundleId == TestValues.bundleId }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(verifiedCount == 32)
            #expect(verifier.statistics.cacheHits + verifier.chainValidations == 32)
        }
    }
}

/// A fresh P-256 key with its certificate form.
struct P256Key {
    let privateKey = Crypto.P256.Signing.PrivateKey()
    var certificatePublicKey: X509.Certificate.PublicKey { .init(privateKey.publicKey) }
}

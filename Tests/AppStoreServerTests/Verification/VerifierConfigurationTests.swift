import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

extension VerificationTests {
    /// What a `SignedDataVerifier` refuses to be built with.
    @Suite struct VerifierConfigurationTests {
        @Test func productionWithoutAppAppleIdIsAConfigurationError() throws {
            #expect(throws: SignedDataVerifierConfigurationError.missingAppAppleId) {
                try SignedDataVerifier(
                    rootCertificates: [AppleRootCertificates.appleRootCAG3], bundleId: "com.example", appAppleId: nil,
                    environments: [.production, .sandbox]
                )
            }
        }

        @Test func sandboxOnlyNeedsNoAppAppleId() throws {
            let verifier = try SignedDataVerifier(
                rootCertificates: [AppleRootCertificates.appleRootCAG3], bundleId: "com.example", appAppleId: nil,
                environments: [.sandbox]
            )
            #expect(verifier.environments == [.sandbox])
            #expect(verifier.onlineChecks == false)
        }

        @Test func noRootsIsAConfigurationError() throws {
            #expect(throws: SignedDataVerifierConfigurationError.noRootCertificates) {
                try SignedDataVerifier(rootCertificates: [], bundleId: "com.example", appAppleId: nil, environments: [.sandbox])
            }
        }

        @Test func aMalformedRootIsAConfigurationError() throws {
            #expect(throws: SignedDataVerifierConfigurationError.invalidRootCertificate(index: 1)) {
                try SignedDataVerifier(
                    rootCertificates: [AppleRootCertificates.appleRootCAG3, Data("PEM? no".utf8)], bundleId: "com.example",
                    appAppleId: nil, environments: [.sandbox]
                )
            }
        }

        @Test func noEnvironmentsIsAConfigurationError() throws {
            #expect(throws: SignedDataVerifierConfigurationError.noEnvironments) {
                try SignedDataVerifier(
                    rootCertificates: [AppleRootCertificates.appleRootCAG3], bundleId: "com.example", appAppleId: 1,
                    environments: []
                )
            }
        }

        @Test func errorCodesAreStable() {
            let cases: [(VerificationError, String)] = [
                (.invalidJWS("x"), "INVALID_JWS"), (.unsupportedAlgorithm("HS256"), "UNSUPPORTED_ALGORITHM"),
                (.invalidChainLength(2), "INVALID_CHAIN_LENGTH"), (.invalidCertificate("x"), "INVALID_CERTIFICATE"),
                (.invalidChain("x"), "INVALID_CHAIN"), (.invalidSignature("x"), "INVALID_SIGNATURE"),
                (.invalidPayload("x"), "INVALID_PAYLOAD"), (.invalidAppIdentifier("x"), "INVALID_APP_IDENTIFIER"),
                (.invalidEnvironment("x"), "INVALID_ENVIRONMENT"), (.retryable("x"), "RETRYABLE"),
            ]
            for (error, code) in cases {
                #expect(error.code == code)
                #expect(error.isRetryable == (code == "RETRYABLE"))
                #expect(!error.message.isEmpty)
            }
        }
    }
}

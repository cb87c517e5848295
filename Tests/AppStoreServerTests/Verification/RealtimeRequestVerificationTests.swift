import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

extension VerificationTests {
    /// Retention Messaging realtime requests: Apple's model vector signed with Apple's test chain,
    /// and the identity checks Apple's documentation asks for.
    @Suite struct RealtimeRequestVerificationTests {
        let pki: SimulatorPKI
        let signer: AppStoreSigner

        init() throws {
            pki = try TestValues.pki()
            signer = pki.signer()
        }

        private func request(
            appAppleId: Int64 = TestValues.appAppleId, environment: AppStoreEnvironment = .sandbox
        ) -> DecodedRealtimeRequestBody {
            DecodedRealtimeRequestBody(
                originalTransactionId: "2000000000000001", appAppleId: appAppleId, productId: "com.example.monthly",
                userLocale: "de-DE", requestIdentifier: UUID(uuidString: "0F8FAD5B-D9CB-469F-A165-70867728950E")!,
                signedDate: TestValues.signedDate, environment: environment)
        }

        private func verifier(_ environments: Set<AppStoreEnvironment>, appAppleId: Int64? = TestValues.appAppleId) throws
            -> SignedDataVerifier
        {
            try TestValues.verifier(root: pki.rootCertificateDER, environments: environments, appAppleId: appAppleId)
        }

        @Test func applesModelVectorVerifiesWithAppleTestChain() async throws {
            let verifier = try SignedDataVerifier(
                rootCertificates: [AppleFixtures.testCA()], bundleId: "com.example", appAppleId: 531412,
                environments: [.localTesting])
            let jws = try AppleFixtures.signer().sign(payloadJSON: ModelFixture.data("decodedRealtimeRequest"))
            let request = try await verifier.verifyRealtimeRequest(jws)
            #expect(request.originalTransactionId == "99371282")
            #expect(request.appAppleId == 531412)
            #expect(request.productId == "com.example.product")
            #expect(request.userLocale == "en-US")
            #expect(request.requestIdentifier == UUID(uuidString: "3db5c98d-8acf-4e29-831e-8e1f82f9f6e9"))
            #expect(request.environment == .localTesting)
            #expect(request.signedDate == Date(appStoreMilliseconds: 1_698_148_900_000))
        }

        @Test func aRequestRoundTripsThroughTheSimulatorSigner() async throws {
            let verified = try await verifier([.sandbox]).verifyRealtimeRequest(signer.sign(request()))
            #expect(verified == request())
        }

        @Test func anotherAppsRequestIsRejectedInEveryEnvironment() async throws {
            for environment in [AppStoreEnvironment.sandbox, .production] {
                let jws = try signer.sign(request(appAppleId: 999, environment: environment))
                await expectVerificationError("INVALID_APP_IDENTIFIER") {
                    try await verifier([.sandbox, .production]).verifyRealtimeRequest(jws)
                }
            }
        }

        @Test func aSandboxOnlyVerifierWithoutAppAppleIdAcceptsAnyApp() async throws {
            let verified = try await verifier([.sandbox], appAppleId: nil).verifyRealtimeRequest(signer.sign(request(appAppleId: 999)))
            #expect(verified.appAppleId == 999)
        }

        @Test func anEnvironmentNotAcceptedIsRejected() async throws {
            let jws = try signer.sign(request(environment: .production))
            await expectVerificationError("INVALID_ENVIRONMENT") { try await verifier([.sandbox]).verifyRealtimeRequest(jws) }
        }

        @Test(arguments: [
            "originalTransactionId", "appAppleId", "productId", "userLocale", "requestIdentifier", "signedDate", "environment",
        ])
        func aRequestMissingAFieldIsRejected(field: String) async throws {
            var object = try #require(JSONSerialization.jsonObject(with: AppStoreJSON.encoder().encode(request())) as? [String: Any])
            object[field] = nil
            let jws = try signer.sign(payloadJSON: JSONSerialization.data(withJSONObject: object))
            let error = await expectVerificationError("INVALID_PAYLOAD") { try await verifier([.sandbox]).verifyRealtimeRequest(jws) }
            #expect(error?.message.contains(field) == true)
        }

        @Test(arguments: [
            #""requestIdentifier":"not-a-uuid""#, #""appAppleId":"1234""#, #""signedDate":-5"#, #""productId":null"#,
        ])
        func aRequestWithABadValueIsRejected(replacement: String) async throws {
            let json = String(decoding: try AppStoreJSON.encoder().encode(request()), as: UTF8.self)
            let key = String(replacement.split(separator: ":")[0])
            let range = try #require(json.range(of: "\(key):[^,}]+", options: .regularExpression))
            let jws = try signer.sign(payloadJSON: Data(json.replacingCharacters(in: range, with: replacement).utf8))
            await expectVerificationError("INVALID_PAYLOAD") { try await verifier([.sandbox]).verifyRealtimeRequest(jws) }
        }

        @Test func aRequestSignedByAnotherRootIsRejected() async throws {
            let other = try TestValues.pki().signer()
            await expectVerificationError("INVALID_CHAIN") { try await verifier([.sandbox]).verifyRealtimeRequest(other.sign(request())) }
        }
    }
}

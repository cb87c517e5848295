import Foundation

extension SignedDataVerifier {
    /// Verifies the `signedPayload` of a Retention Messaging realtime request (Get Retention
    /// Message): the same JWS and chain checks as every payload, then the App Apple ID, then the
    /// environment. Realtime requests carry no bundle id.
    ///
    /// Stricter than Apple's libraries, which compare the App Apple ID in Production only: Apple's
    /// documentation asks to check it on every request ("if it doesn't match, don't respond"), so
    /// whenever the verifier is configured with one, a request naming another app is
    /// ``VerificationError/invalidAppIdentifier(_:)`` in any environment.
    public func verifyRealtimeRequest(_ signedPayload: String) async throws(VerificationError) -> DecodedRealtimeRequestBody {
        let request = try await verifySignature(signedPayload, as: DecodedRealtimeRequestBody.self, signedDate: \.signedDate)
        if let appAppleId, request.appAppleId != appAppleId {
            throw .invalidAppIdentifier("the App Apple ID is not the configured one")
        }
        _ = try checkEnvironment(request.environment)
        return request
    }
}

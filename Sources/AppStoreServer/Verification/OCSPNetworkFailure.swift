/// The error an `OCSPRequester` reports (as `.terminalError`) when the OCSP responder could not be
/// asked: a network error, a timeout, a non-200 status or an oversized/unreadable body.
///
/// swift-certificates' OCSP policy turns a terminal requester error into a policy failure whose
/// reason is the error's description; ``SignedDataVerifier`` recognises ``marker`` in that reason
/// and reports ``VerificationError/retryable(_:)`` instead of an invalid chain (Apple's libraries
/// do the same with the same marker).
public struct OCSPNetworkFailure: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text that identifies a network failure inside a policy failure reason.
    public static let marker = "OCSP_NETWORK_REQUEST_FAILED"

    /// What went wrong, without response bodies or credentials.
    public var reason: String

    /// A failure described by `reason`.
    public init(reason: String) {
        self.reason = reason
    }

    public var description: String { "\(Self.marker): \(reason)" }
}

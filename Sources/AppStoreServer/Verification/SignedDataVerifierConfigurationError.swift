/// Why a ``SignedDataVerifier`` could not be created.
public enum SignedDataVerifierConfigurationError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No trusted root certificate was given.
    case noRootCertificates
    /// The root certificate at `index` is not a DER X.509 certificate.
    case invalidRootCertificate(index: Int)
    /// The set of accepted environments is empty.
    case noEnvironments
    /// Production is accepted but no App Apple ID was given (Apple's `INVALID_APP_APPLE_ID`):
    /// production payloads are only accepted for a known app.
    case missingAppAppleId
    /// Online checks were requested without an OCSP requester to perform them.
    case missingOCSPRequester

    public var description: String {
        switch self {
        case .noRootCertificates:
            "at least one trusted root certificate is required"
        case .invalidRootCertificate(let index):
            "root certificate #\(index + 1) is not a DER X.509 certificate"
        case .noEnvironments:
            "at least one accepted environment is required"
        case .missingAppAppleId:
            "accepting the Production environment requires the app's App Apple ID"
        case .missingOCSPRequester:
            "online checks need an OCSP requester"
        }
    }
}

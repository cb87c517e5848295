import SwiftASN1
import X509

/// The Apple-specific part of chain validation for App Store signed data.
///
/// Apple signs JWS payloads with a "receipt signing" leaf issued by the Worldwide Developer
/// Relations intermediate. Validity dates, signatures and basic constraints are
/// ``RFC5280Policy``'s business; this policy adds what makes a chain an *App Store* chain:
///
/// - exactly three certificates (leaf, intermediate, root);
/// - the intermediate carries the extension ``intermediateMarker`` (`1.2.840.113635.100.6.2.1`);
/// - the leaf carries the extension ``leafMarker`` (`1.2.840.113635.100.6.11.1`).
///
/// The extensions' values are not interpreted (Apple's are ASN.1 NULL); only their presence counts.
public struct AppStoreOIDPolicy: VerifierPolicy, Sendable {
    /// Marks Apple's Worldwide Developer Relations intermediate CA.
    public static let intermediateMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 2, 1]
    /// Marks a certificate allowed to sign App Store receipts and JWS payloads.
    public static let leafMarker: ASN1ObjectIdentifier = [1, 2, 840, 113635, 100, 6, 11, 1]

    /// The policy enforces no critical extension; Apple's markers are non-critical.
    public let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = []

    /// Creates the policy.
    public init() {}

    public func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        guard chain.count == 3 else {
            return .failsToMeetPolicy(reason: "App Store chains have three certificates, this one has \(chain.count)")
        }
        guard chain[1].extensions[oid: Self.intermediateMarker] != nil else {
            return .failsToMeetPolicy(reason: "intermediate certificate lacks the Apple WWDR marker extension")
        }
        guard chain[0].extensions[oid: Self.leafMarker] != nil else {
            return .failsToMeetPolicy(reason: "leaf certificate lacks the App Store receipt-signing marker extension")
        }
        return .meetsPolicy
    }
}

import Crypto
import Foundation
import Synchronization
import X509

/// The OCSP responder of a ``SimulatorPKI``, as Apple's PKI has one: it answers RFC 6960 requests
/// for the intermediate (signed by the root) and for leaves (signed by the intermediate) with
/// `good`, or `revoked` for the certificates marked with ``revoke(_:)``.
///
/// `SimulatorServer` serves it at `POST /ocsp` (`Content-Type: application/ocsp-request`, answered
/// with a DER `application/ocsp-response`) together with its control routes (see `OCSPRoutes`).
/// Each response is signed directly by the issuer of the certificate asked about (`responderID`
/// byName, no delegated responder certificate), repeats the request's nonce, and is valid from
/// the earlier to one hour past the later of the wall clock and the simulated clock, so it is
/// fresh both for verifiers on real time and for verifiers on the simulator's clock. Any serial
/// number under a known issuer that is not revoked is `good` (as RFC 6960 §2.2 allows); a
/// request about another issuer is answered `unauthorized`, an unreadable one `malformedRequest`.
///
/// Verifiers only ask a responder whose URL is in the certificates, and a certificate's URL is
/// fixed when it is issued — before the server binds. So choose the port first and issue the
/// PKI with ``responderURL(host:port:)``:
///
/// ```swift
/// let port = 9080 // a fixed port, or one reserved by binding port 0, reading it back and closing
/// let pki = try SimulatorPKI(options: .init(
///     ocspResponderURL: SimulatorOCSPResponder.responderURL(host: "127.0.0.1", port: port)))
/// let server = await SimulatorServer(store: SimulatorStore(pki: pki), port: port)
/// try await server.start()
/// ```
///
/// A PKI issued without `ocspResponderURL` is never checked online, whatever this responder says.
public final class SimulatorOCSPResponder: Sendable {
    /// Whether the responder answers.
    public enum Mode: String, Sendable, Hashable, Codable {
        /// Signed answers (`good`, or `revoked` for revoked certificates).
        case good
        /// HTTP 500 to every request, like an unreachable responder.
        case unavailable
    }

    /// The certificates of the hierarchy that can be revoked.
    public enum CertificateRole: String, Sendable, Hashable, Codable, CaseIterable {
        /// The signing leaf.
        case leaf
        /// The intermediate CA.
        case intermediate
    }

    /// The path the server answers OCSP requests at.
    public static let path = "/ocsp"

    /// How long after the later of the two clocks a response stays valid (`nextUpdate`).
    public static let responseLifetime: TimeInterval = 3600

    /// The URL to issue a ``SimulatorPKI`` with (``SimulatorPKI/Options/ocspResponderURL``) when
    /// the simulator will listen on `host:port`.
    public static func responderURL(host: String = "127.0.0.1", port: Int) -> String {
        "http://\(host):\(port)\(path)"
    }

    /// The hierarchy whose certificates this responder vouches for.
    public let pki: SimulatorPKI
    /// The simulated clock (see the type's note on validity).
    public let clock: SimulatorClock

    private struct State {
        var mode: Mode = .good
        var revoked: [CertificateRole: Date] = [:]
        var answeredRequests = 0
    }

    private let state = Mutex(State())

    /// A responder for `pki`, all certificates good and answering.
    public init(pki: SimulatorPKI, clock: SimulatorClock = SimulatorClock()) {
        self.pki = pki
        self.clock = clock
    }

    /// Whether the responder answers (``Mode/good``) or fails with HTTP 500 (``Mode/unavailable``).
    public var mode: Mode {
        get { state.withLock { $0.mode } }
        set { state.withLock { $0.mode = newValue } }
    }

    /// Marks a certificate revoked (at the earlier of the wall and simulated clocks; revoking
    /// again keeps the first time).
    public func revoke(_ role: CertificateRole) {
        let now = min(Date(), clock.now)
        state.withLock { state in
            if state.revoked[role] == nil { state.revoked[role] = now }
        }
    }

    /// Clears the revocation of `role`, or of every certificate when nil.
    public func clearRevocation(_ role: CertificateRole? = nil) {
        state.withLock { state in
            if let role { state.revoked[role] = nil } else { state.revoked.removeAll() }
        }
    }

    /// The certificates currently revoked (leaf first).
    public var revokedCertificates: [CertificateRole] {
        state.withLock { state in CertificateRole.allCases.filter { state.revoked[$0] != nil } }
    }

    /// How many successful (signed) responses were produced so far.
    public var answeredRequests: Int { state.withLock { $0.answeredRequests } }

    /// The OCSP responder URL written into the PKI's leaf, if any.
    public var configuredResponderURL: String? {
        let access = try? pki.leafCertificate.extensions.authorityInformationAccess
        return access?.lazy.filter { $0.method == .ocspServer }.compactMap { description -> String? in
            guard case .uniformResourceIdentifier(let uri) = description.location else { return nil }
            return uri
        }.first
    }

    /// The DER `OCSPResponse` to the DER `OCSPRequest` `request`. Never fails: problems are
    /// answered with an unsuccessful response status, as a responder does. (The ``mode`` is
    /// applied by the HTTP route, which answers 500 instead of calling this.)
    public func response(to request: [UInt8]) -> [UInt8] {
        guard let parsed = try? ParsedOCSPRequest(derEncoded: request) else {
            return OCSPResponseEncoder.unsuccessful(.malformedRequest)
        }
        do {
            // One response has one signer, so every certificate asked about must share an issuer.
            guard let issuer = try findIssuer(of: parsed.certificateIDs[0]),
                try parsed.certificateIDs.allSatisfy({ try $0.isIssued(by: issuer.certificate) })
            else {
                return OCSPResponseEncoder.unsuccessful(.unauthorized)
            }
            let revoked = state.withLock { $0.revoked }
            let answers = parsed.certificateIDs.map { id in
                OCSPResponseEncoder.SingleAnswer(
                    certificateID: id,
                    revokedAt: id.serialNumber == issuer.revocableSerial ? revoked[issuer.revocableRole] : nil)
            }
            let wall = Date()
            let simulated = clock.now
            let der = try OCSPResponseEncoder.successful(
                answers: answers, responderName: issuer.certificate.subject, signingKey: issuer.key,
                producedAt: min(wall, simulated),
                nextUpdate: max(wall, simulated).addingTimeInterval(Self.responseLifetime),
                nonce: parsed.nonce)
            state.withLock { $0.answeredRequests += 1 }
            return der
        } catch {
            return OCSPResponseEncoder.unsuccessful(.internalError)
        }
    }

    /// An issuing CA of the hierarchy and the one certificate under it that can be revoked.
    private struct Issuer {
        let certificate: Certificate
        let key: P256.Signing.PrivateKey
        let revocableRole: CertificateRole
        let revocableSerial: [UInt8]
    }

    /// The CA that issued the certificate `id` names: the intermediate (leaves) or the root (the
    /// intermediate); nil when neither did.
    private func findIssuer(of id: OCSPCertificateID) throws -> Issuer? {
        let candidates = [
            Issuer(
                certificate: pki.intermediateCertificate, key: pki.intermediateKey, revocableRole: .leaf,
                revocableSerial: OCSPCertificateID.trimmed(pki.leafCertificate.serialNumber.bytes)),
            Issuer(
                certificate: pki.rootCertificate, key: pki.rootKey, revocableRole: .intermediate,
                revocableSerial: OCSPCertificateID.trimmed(pki.intermediateCertificate.serialNumber.bytes)),
        ]
        for candidate in candidates where try id.isIssued(by: candidate.certificate) {
            return candidate
        }
        return nil
    }
}

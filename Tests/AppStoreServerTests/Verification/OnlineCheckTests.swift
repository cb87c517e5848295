import AppStoreServer
import AppStoreSimulator
import Foundation
import Synchronization
import Testing
import X509

/// An OCSP requester standing in for the network: it answers every query with a fixed result and
/// counts the queries. (The OCSP policy, chain validation and signature checks still run for real.)
final class ScriptedOCSPRequester: OCSPRequester {
    enum Behaviour: Sendable {
        /// The responder is unreachable (what `AsyncHTTPClientOCSPRequester` reports on network errors).
        case networkFailure
        /// A terminal error that is not a network failure.
        case otherTerminalError
        /// The query failed in a way the policy tolerates (treated as not revoked).
        case tolerated
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String { "responder rejected the request" }
    }

    let behaviour: Behaviour
    private let counter = Mutex<[String]>([])

    init(_ behaviour: Behaviour) {
        self.behaviour = behaviour
    }

    /// The responder URIs queried so far.
    var queriedURIs: [String] { counter.withLock { $0 } }

    func query(request: [UInt8], uri: String) async -> OCSPRequesterQueryResult {
        counter.withLock { $0.append(uri) }
        switch behaviour {
        case .networkFailure: return .terminalError(OCSPNetworkFailure(reason: "connection refused"))
        case .otherTerminalError: return .terminalError(Failure())
        case .tolerated: return .nonTerminalError(Failure())
        }
    }
}

/// A clock tests can move.
final class TestClock: Sendable {
    private let current: Mutex<Date>
    init(_ start: Date) { current = Mutex(start) }
    var now: Date { current.withLock { $0 } }
    func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }
}

extension VerificationTests {
    /// Online checks: validation at the clock's time, OCSP with hard failure, 15-minute freshness.
    @Suite struct OnlineCheckTests {
        static let responder = "http://ocsp.verdict.test/ocsp"

        private func pkiWithOCSP() throws -> SimulatorPKI {
            try TestValues.pki { $0.ocspResponderURL = Self.responder }
        }

        @Test func anUnreachableResponderIsRetryable() async throws {
            let pki = try pkiWithOCSP()
            let requester = ScriptedOCSPRequester(.networkFailure)
            let verifier = try TestValues.verifier(root: pki.rootCertificateDER, onlineChecks: true, ocspRequester: requester)
            let error = await expectVerificationError("RETRYABLE") {
                try await verifier.verifyNotification(pki.signer().sign(TestValues.notification()))
            }
            #expect(error?.isRetryable == true)
            #expect(requester.queriedURIs.first == Self.responder)
        }

        @Test func anotherTerminalOCSPErrorIsAnInvalidChain() async throws {
            let pki = try pkiWithOCSP()
            let verifier = try TestValues.verifier(
                root: pki.rootCertificateDER, onlineChecks: true, ocspRequester: ScriptedOCSPRequester(.otherTerminalError)
            )
            let error = await expectVerificationError("INVALID_CHAIN") {
                try await verifier.verifyNotification(pki.signer().sign(TestValues.notification()))
            }
            #expect(error?.isRetryable == false)
        }

        @Test func onlineChecksValidateAtTheClocksTimeNotTheSignedDate() async throws {
            let pki = try pkiWithOCSP()
            // Signed while the chain was valid, but the clock says 2036: online, that is too late.
            let verifier = try TestValues.verifier(
                root: pki.rootCertificateDER, onlineChecks: true, ocspRequester: ScriptedOCSPRequester(.tolerated),
                clock: { Date(appStoreMilliseconds: 2_082_758_400_000) }
            )
            await expectVerificationError("INVALID_CHAIN") {
                try await verifier.verifyNotification(pki.signer().sign(TestValues.notification()))
            }
        }

        @Test func onlineResultsAreReusedForFifteenMinutes() async throws {
            let pki = try pkiWithOCSP()
            let requester = ScriptedOCSPRequester(.tolerated)
            let clock = TestClock(TestValues.now)
            let verifier = try TestValues.verifier(
                root: pki.rootCertificateDER, onlineChecks: true, ocspRequester: requester, clock: { clock.now }
            )
            let jws = try pki.signer().sign(TestValues.notification())

            _ = try await verifier.verifyNotification(jws)
            let queriesAfterFirst = requester.queriedURIs.count
            #expect(queriesAfterFirst == 2)  // the intermediate and the leaf

            clock.advance(by: 14 * 60)
            _ = try await verifier.verifyNotification(jws)
            #expect(verifier.chainValidations == 1)
            #expect(requester.queriedURIs.count == queriesAfterFirst)

            clock.advance(by: 2 * 60)
            _ = try await verifier.verifyNotification(jws)
            #expect(verifier.chainValidations == 2)
            #expect(requester.queriedURIs.count == 2 * queriesAfterFirst)
        }

        @Test func onlineChecksRequireARequester() throws {
            let pki = try TestValues.pki()
            #expect(throws: SignedDataVerifierConfigurationError.missingOCSPRequester) {
                try TestValues.verifier(root: pki.rootCertificateDER, onlineChecks: true)
            }
        }
    }
}

import AppStoreServer
import AppStoreServerHTTP
import AppStoreSimulator
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Online verification (`onlineChecks: true`) with the real `AsyncHTTPClientOCSPRequester`
/// against the simulator's OCSP responder over HTTP on 127.0.0.1.
///
/// The certificates must name the responder's URL before the server binds, so each test reserves
/// a free port, issues the PKI with that port's URL and starts the server on it.
@Suite struct OCSPTests {
    static let bundleId = "com.example.verdict"

    /// A running simulator whose PKI points its OCSP URL at itself.
    struct OnlineSimulator {
        let store: SimulatorStore
        let baseURL: URL
        let transport = AsyncHTTPClientTransport()

        /// A signed ONE_TIME_CHARGE notification (with a signed transaction inside).
        func notification() async throws -> String {
            try await store.purchase(OneTimePurchaseRequest(productId: "com.example.coins", price: 990))
                .notification.signedPayload
        }

        /// Sends a control request with a JSON body; returns the status and the decoded JSON object.
        func control(_ method: String, _ path: String, _ json: String? = nil) async throws -> (Int, [String: Any]) {
            let response = try await transport.send(AppStoreHTTPRequest(
                method: method, url: URL(string: baseURL.absoluteString + path)!,
                headers: json == nil ? [] : [("Content-Type", "application/json")], body: json.map { Data($0.utf8) }))
            let object = try JSONSerialization.jsonObject(with: response.body) as? [String: Any]
            return (response.status, object ?? [:])
        }
    }

    static func withOnlineSimulator(_ body: (OnlineSimulator) async throws -> Void) async throws {
        // The responder's URL is in the certificates, so the port is chosen before the server
        // binds it; another process may take it in between: then stop (the deliverer's HTTP client
        // must be shut down) and try again with a new port.
        var attempt = 0
        var started: (server: SimulatorServer, store: SimulatorStore, port: Int)?
        while started == nil {
            attempt += 1
            let port = try reserveLoopbackPort()
            let pki = try SimulatorPKI(options: .init(
                ocspResponderURL: SimulatorOCSPResponder.responderURL(host: "127.0.0.1", port: port)))
            let store = SimulatorStore(
                configuration: SimulatorAppConfiguration(bundleId: bundleId, appAppleId: 1_234_567_890, environment: .sandbox),
                pki: pki)
            let server = await SimulatorServer(store: store, port: port)
            do {
                try await server.start()
                started = (server, store, port)
            } catch {
                await server.stop()
                if attempt >= 5 { throw error }
            }
        }
        guard let (server, store, port) = started else { return }
        do {
            try await body(OnlineSimulator(store: store, baseURL: URL(string: "http://127.0.0.1:\(port)")!))
            await server.stop()
        } catch {
            await server.stop()
            throw error
        }
    }

    /// A fresh online verifier (no cached chains) trusting `rootDER`.
    static func onlineVerifier(trusting rootDER: Data) throws -> SignedDataVerifier {
        try SignedDataVerifier(
            rootCertificates: [rootDER], bundleId: bundleId, appAppleId: nil, environments: [.sandbox],
            onlineChecks: true, ocspRequester: AsyncHTTPClientOCSPRequester())
    }

    /// The error `verifyNotification` throws for `signedPayload`, or nil when it verifies.
    static func verificationError(_ verifier: SignedDataVerifier, _ signedPayload: String) async -> VerificationError? {
        do {
            _ = try await verifier.verifyNotification(signedPayload)
            return nil
        } catch {
            return error
        }
    }

    @Test func notificationVerifiesWhenTheResponderSaysGood() async throws {
        try await Self.withOnlineSimulator { simulator in
            let (_, before) = try await simulator.control("GET", "/simulator/pki/ocsp")
            #expect(before["ocspResponderURL"] as? String == simulator.baseURL.absoluteString + "/ocsp")
            #expect(before["answeredRequests"] as? Int == 0)

            let verifier = try Self.onlineVerifier(trusting: simulator.store.pki.rootCertificateDER)
            let verified = try await verifier.verifyNotification(try await simulator.notification())
            #expect(verified.payload.notificationType == .oneTimeCharge)
            #expect(verified.transaction?.productId == "com.example.coins")

            // Both the leaf (answered by the intermediate) and the intermediate (by the root) were asked.
            let (_, after) = try await simulator.control("GET", "/simulator/pki/ocsp")
            #expect((after["answeredRequests"] as? Int ?? 0) >= 2)
        }
    }

    @Test func revokedLeafIsAnInvalidChain() async throws {
        try await Self.withOnlineSimulator { simulator in
            let (status, state) = try await simulator.control("POST", "/simulator/pki/revoke", #"{"certificate":"leaf"}"#)
            #expect(status == 200)
            #expect(state["revoked"] as? [String] == ["leaf"])

            let verifier = try Self.onlineVerifier(trusting: simulator.store.pki.rootCertificateDER)
            let error = await Self.verificationError(verifier, try await simulator.notification())
            #expect(error?.code == "INVALID_CHAIN")
            #expect(error?.message.contains("revoked") == true)
        }
    }

    @Test func revokedIntermediateIsAnInvalidChain() async throws {
        try await Self.withOnlineSimulator { simulator in
            _ = try await simulator.control("POST", "/simulator/pki/revoke", #"{"certificate":"intermediate"}"#)
            let verifier = try Self.onlineVerifier(trusting: simulator.store.pki.rootCertificateDER)
            let error = await Self.verificationError(verifier, try await simulator.notification())
            #expect(error?.code == "INVALID_CHAIN")
        }
    }

    @Test func clearingTheRevocationMakesTheChainGoodAgain() async throws {
        try await Self.withOnlineSimulator { simulator in
            _ = try await simulator.control("POST", "/simulator/pki/revoke", #"{"certificate":"leaf"}"#)
            let (status, state) = try await simulator.control("DELETE", "/simulator/pki/revoke")
            #expect(status == 200)
            #expect(state["revoked"] as? [String] == [])

            let verifier = try Self.onlineVerifier(trusting: simulator.store.pki.rootCertificateDER)
            let error = await Self.verificationError(verifier, try await simulator.notification())
            #expect(error == nil)
        }
    }

    @Test func responderAnswering500IsRetryable() async throws {
        try await Self.withOnlineSimulator { simulator in
            let (status, state) = try await simulator.control("PUT", "/simulator/pki/ocsp", #"{"mode":"unavailable"}"#)
            #expect(status == 200)
            #expect(state["mode"] as? String == "unavailable")

            let verifier = try Self.onlineVerifier(trusting: simulator.store.pki.rootCertificateDER)
            let error = await Self.verificationError(verifier, try await simulator.notification())
            #expect(error?.code == "RETRYABLE")
            #expect(error?.message.contains("500") == true)
        }
    }

    @Test func closedOCSPPortIsRetryable() async throws {
        try await withRefusingLoopbackPort { closedPort in
            let pki = try SimulatorPKI(options: .init(
                ocspResponderURL: SimulatorOCSPResponder.responderURL(host: "127.0.0.1", port: closedPort)))
            let payload = ResponseBodyV2DecodedPayload(
                notificationType: .test, notificationUUID: UUID().uuidString,
                data: NotificationData(environment: .sandbox, bundleId: Self.bundleId), version: "2.0", signedDate: Date())
            let signedPayload = try pki.signer().sign(payload)

            let verifier = try Self.onlineVerifier(trusting: pki.rootCertificateDER)
            let error = await Self.verificationError(verifier, signedPayload)
            #expect(error?.code == "RETRYABLE")
        }
    }

    @Test func unknownRevocationTargetIsRejected() async throws {
        try await Self.withOnlineSimulator { simulator in
            let (status, state) = try await simulator.control("POST", "/simulator/pki/revoke", #"{"certificate":"root"}"#)
            #expect(status == 400)
            #expect(state["error"] is String)
        }
    }
}

/// A TCP port on 127.0.0.1 that nothing listens on: bound to port 0, read back, closed (so a
/// server can bind it next, or a client finds it closed).
func reserveLoopbackPort() throws -> Int {
    let (descriptor, port) = try bindLoopbackSocket()
    close(descriptor)
    return port
}

/// Runs `body` with a loopback port that refuses connections: a socket is bound to it but never
/// listens, so no other process can take the port meanwhile (a merely reserved-then-closed port
/// may be reused by a server of a test running in parallel).
func withRefusingLoopbackPort<T>(_ body: (Int) async throws -> T) async throws -> T {
    let (descriptor, port) = try bindLoopbackSocket()
    defer { close(descriptor) }
    return try await body(port)
}

/// A TCP socket bound to 127.0.0.1 on a free port (not listening), and the port.
private func bindLoopbackSocket() throws -> (Int32, Int) {
    #if canImport(Glibc) || canImport(Musl)
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw PortReservationError() }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
    }
    guard bound == 0 else {
        close(descriptor)
        throw PortReservationError()
    }
    var boundLength = length
    let named = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &boundLength) }
    }
    guard named == 0 else {
        close(descriptor)
        throw PortReservationError()
    }
    return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
}

/// No free loopback port could be reserved.
struct PortReservationError: Error {}

import AppStoreServer
import Crypto
import Foundation

/// The intake path as a fuzz target: raw request body → `signedPayload` → verified notification,
/// the same calls `POST /v1/notifications` makes before it stores anything.
///
/// The first byte of an input picks what the rest is, so mutations reach past the signature check
/// (a mutated JWS almost never verifies):
///
/// | first byte mod 4 | the rest of the input |
/// |---|---|
/// | 0 | the HTTP body, as posted |
/// | 1 | a notification payload (JSON), signed with the trusted test chain |
/// | 2 | a transaction payload (JSON), signed and nested in a signed `DID_RENEW` notification |
/// | 3 | a JWS protected header (JSON) over a fixed notification payload, signed |
///
/// Every input must end in a verification result or a ``VerificationError``/envelope failure; a
/// trap (or, under the address sanitizer, a memory error) is a finding.
public struct IntakeFuzzTarget: Sendable {
    /// The chain the target signs with and trusts, in Apple's test-vector form.
    public struct Chain: Sendable {
        public var root: Data
        public var intermediate: Data
        public var leaf: Data
        public var leafKey: P256.Signing.PrivateKey

        /// Reads `testCA.der`, `testIntermediate.der`, `testLeaf.der` and `testLeaf.key` (PEM)
        /// from `directory`: Apple's published test chain, valid 2023-01-05 → 2033-01-01.
        public init(directory: URL) throws {
            func data(_ name: String) throws -> Data { try Data(contentsOf: directory.appendingPathComponent(name)) }
            root = try data("testCA.der")
            intermediate = try data("testIntermediate.der")
            leaf = try data("testLeaf.der")
            leafKey = try P256.Signing.PrivateKey(pemRepresentation: String(decoding: data("testLeaf.key"), as: UTF8.self))
        }
    }

    /// The bundle id, App Apple ID and clock the verifier is configured with.
    public static let bundleId = "com.example"
    public static let appAppleId: Int64 = 1234
    /// 2026-01-02, inside the test chain's validity.
    public static let now = Date(timeIntervalSince1970: 1_767_312_000)

    let chain: Chain
    let verifier: SignedDataVerifier
    let header: Data

    public init(chain: Chain) throws {
        self.chain = chain
        verifier = try SignedDataVerifier(
            rootCertificates: [chain.root], bundleId: Self.bundleId, appAppleId: Self.appAppleId,
            environments: [.sandbox, .production], now: { Self.now }
        )
        let x5c = [chain.leaf, chain.intermediate, chain.root].map { "\"\($0.base64EncodedString())\"" }
        header = Data(#"{"alg":"ES256","x5c":[\#(x5c.joined(separator: ","))]}"#.utf8)
    }

    /// What one input came to (for replays and tests; the fuzzer ignores it).
    public enum Outcome: Equatable, Sendable {
        case refusedBody(NotificationEnvelope.Failure)
        case refused(code: String)
        case verified(notificationType: String?)
    }

    /// Runs one input through the intake path.
    public func run(_ input: Data) async -> Outcome {
        guard let mode = input.first else { return .refusedBody(.malformed) }
        let rest = input.dropFirst()
        let body: Data
        do {
            switch mode % 4 {
            case 0: body = Data(rest)
            case 1: body = try envelope(sign(Data(rest)))
            case 2: body = try envelope(sign(notification(nestingTransaction: sign(Data(rest)))))
            default: body = try envelope(CompactJWS.signES256(header: Data(rest), payload: Self.fixedNotification, key: chain.leafKey))
            }
        } catch {
            return .refusedBody(.malformed)  // signing fails only on key errors, never on content
        }
        let signedPayload: String
        do {
            signedPayload = try NotificationEnvelope.signedPayload(in: body)
        } catch {
            return .refusedBody(error)
        }
        do {
            let verified = try await verifier.verifyNotification(signedPayload)
            // What intake does next with the verified dates (milliseconds for storage).
            _ = verified.payload.signedDate?.appStoreMilliseconds
            _ = verified.transaction?.expiresDate?.appStoreMilliseconds
            return .verified(notificationType: verified.payload.notificationType?.rawValue)
        } catch {
            return .refused(code: error.code)
        }
    }

    /// Runs `input` synchronously (libFuzzer's callback is synchronous).
    public func runBlocking(_ input: Data) {
        let done = DispatchSemaphore(value: 0)
        Task {
            _ = await run(input)
            done.signal()
        }
        done.wait()
    }

    private func sign(_ payload: Data) throws -> String {
        try CompactJWS.signES256(header: header, payload: payload, key: chain.leafKey)
    }

    private func envelope(_ jws: String) -> Data {
        Data(#"{"signedPayload":"\#(jws)"}"#.utf8)
    }

    private func notification(nestingTransaction jws: String) -> Data {
        Data(#"""
        {"notificationType":"DID_RENEW","notificationUUID":"3b8c7d2e-5f61-4a1b-9c0d-2e3f4a5b6c7d","version":"2.0",\#
        "signedDate":1767225600000,"data":{"environment":"Sandbox","appAppleId":1234,"bundleId":"com.example",\#
        "signedTransactionInfo":"\#(jws)"}}
        """#.utf8)
    }

    private static let fixedNotification = Data(#"""
        {"notificationType":"TEST","notificationUUID":"9ad56bd2-0bc6-42e0-af24-fd996d87a1e6","version":"2.0",\#
        "signedDate":1767225600000,"data":{"environment":"Sandbox","appAppleId":1234,"bundleId":"com.example"}}
        """#.utf8)
}

import AppStoreServer
import AppStoreSimulator
import Crypto
import Foundation
import Testing
import X509

/// Apple's published test vectors (copied into the test bundle's Fixtures folder).
enum AppleFixtures {
    static func data(_ name: String) throws -> Data {
        let url = try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures"))
        return try Data(contentsOf: url)
    }

    static func text(_ name: String) throws -> String {
        try #require(String(data: data(name), encoding: .utf8)).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `testCA.der`: the root that anchors every Apple test chain.
    static func testCA() throws -> Data { try data("testCA.der") }

    /// `testNotification.jws`: Apple's signed TEST notification (Sandbox, com.example, 1234).
    static func testNotification() throws -> String { try text("testNotification.jws") }

    /// `signedDate` of `testNotification.jws` (2023-04-12).
    static let testNotificationSignedDate = Date(appStoreMilliseconds: 1_681_314_324_000)

    /// A signer using Apple's test leaf key with the chain `[testLeaf, testIntermediate, testCA]`.
    static func signer() throws -> AppStoreSigner {
        let key = try P256.Signing.PrivateKey(pemRepresentation: text("testLeaf.key"))
        return AppStoreSigner(
            privateKey: key,
            certificateChain: [try data("testLeaf.der"), try data("testIntermediate.der"), try testCA()]
        )
    }
}

/// Fixed dates and identities shared by the verification tests.
enum TestValues {
    static let bundleId = "com.example"
    static let appAppleId: Int64 = 1234
    /// Inside both Apple's test chain (2023-01-05 → 2033-01-01) and ``simulatorOptions``.
    static let signedDate = Date(appStoreMilliseconds: 1_767_225_600_000)  // 2026-01-01
    static let now = Date(appStoreMilliseconds: 1_767_312_000_000)  // 2026-01-02

    /// A correct simulator hierarchy valid 2025-01-01 → 2035-01-01.
    static func simulatorOptions() -> SimulatorPKI.Options {
        SimulatorPKI.Options(
            notValidBefore: Date(appStoreMilliseconds: 1_735_689_600_000),
            notValidAfter: Date(appStoreMilliseconds: 2_051_222_400_000)
        )
    }

    static func pki(_ configure: (inout SimulatorPKI.Options) -> Void = { _ in }) throws -> SimulatorPKI {
        var options = simulatorOptions()
        configure(&options)
        return try SimulatorPKI(options: options)
    }

    /// A verifier for ``bundleId`` / ``appAppleId`` trusting `root`, clock fixed at ``now``.
    static func verifier(
        root: Data,
        environments: Set<AppStoreEnvironment> = [.sandbox],
        appAppleId: Int64? = TestValues.appAppleId,
        onlineChecks: Bool = false,
        ocspRequester: (any OCSPRequester)? = nil,
        clock: @escaping @Sendable () -> Date = { TestValues.now }
    ) throws -> SignedDataVerifier {
        try SignedDataVerifier(
            rootCertificates: [root], bundleId: bundleId, appAppleId: appAppleId, environments: environments,
            onlineChecks: onlineChecks, ocspRequester: ocspRequester, now: clock
        )
    }

    /// A notification about ``bundleId`` in `environment`.
    static func notification(
        environment: AppStoreEnvironment = .sandbox,
        bundleId: String = TestValues.bundleId,
        appAppleId: Int64? = TestValues.appAppleId,
        signedDate: Date = TestValues.signedDate,
        signedTransactionInfo: String? = nil,
        signedRenewalInfo: String? = nil
    ) -> ResponseBodyV2DecodedPayload {
        ResponseBodyV2DecodedPayload(
            notificationType: .didRenew,
            notificationUUID: "6f2c2b4e-1b1e-4a44-9a43-1f2d3c4b5a69",
            data: NotificationData(
                environment: environment, appAppleId: appAppleId, bundleId: bundleId,
                signedTransactionInfo: signedTransactionInfo, signedRenewalInfo: signedRenewalInfo
            ),
            version: "2.0",
            signedDate: signedDate
        )
    }

    /// A consumable transaction of ``bundleId`` in `environment`.
    static func transaction(
        environment: AppStoreEnvironment = .sandbox, bundleId: String = TestValues.bundleId
    ) -> JWSTransactionDecodedPayload {
        JWSTransactionDecodedPayload(
            originalTransactionId: "2000000000000001", transactionId: "2000000000000001", bundleId: bundleId,
            productId: "com.example.coins", type: .consumable, signedDate: TestValues.signedDate,
            environment: environment, currency: "USD", price: 990
        )
    }
}

/// Expects `body` to fail with a ``VerificationError`` whose code is `code`; returns the error.
@discardableResult
func expectVerificationError<T>(
    _ code: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ body: () async throws -> T
) async -> VerificationError? {
    do {
        _ = try await body()
        Issue.record("expected \(code), but verification succeeded", sourceLocation: sourceLocation)
        return nil
    } catch let error as VerificationError {
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        return error
    } catch {
        Issue.record("expected VerificationError \(code), got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}

/// Helpers to take a compact JWS apart and put altered parts back together.
enum JWSSurgery {
    static func segments(_ jws: String) -> [String] {
        jws.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    /// Replaces segment `index` (0 header, 1 payload, 2 signature) with the Base64URL of `bytes`.
    static func replacing(_ jws: String, segment index: Int, with bytes: Data) -> String {
        var parts = segments(jws)
        parts[index] = Base64URL.encode(bytes)
        return parts.joined(separator: ".")
    }

    /// The decoded header of `jws` as a JSON object.
    static func headerObject(_ jws: String) throws -> [String: Any] {
        let bytes = try #require(Base64URL.decode(segments(jws)[0]))
        return try #require(JSONSerialization.jsonObject(with: bytes) as? [String: Any])
    }

    /// The header JSON `{"alg":…,"x5c":[…]}` with the given fields (nil omits the field).
    static func header(alg: String?, x5c: [String]?) throws -> Data {
        var object: [String: Any] = [:]
        if let alg { object["alg"] = alg }
        if let x5c { object["x5c"] = x5c }
        return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    }
}

import Crypto
import Foundation
import X509

/// Verifies and decodes data the App Store signs: notifications, transactions, renewal info and
/// app transactions (compact JWS, ES256, `x5c` certificate chain).
///
/// For each payload, in order:
/// 1. shape: three Base64URL segments and a JSON header (``VerificationError/invalidJWS(_:)``);
/// 2. `alg` must be `ES256` (``VerificationError/unsupportedAlgorithm(_:)``) and `x5c` must hold
///    three certificates (``VerificationError/invalidChainLength(_:)``);
/// 3. the payload is decoded into its model (``VerificationError/invalidPayload(_:)``);
/// 4. the chain `x5c[0]` → `x5c[1]` must lead to one of the *configured* roots (`x5c[2]` is
///    ignored) with Apple's marker extensions, valid at the validation time — the payload's signed
///    date offline, the clock's now online (plus a hard-fail OCSP check); the leaf key must be P-256
///    (``VerificationError/invalidCertificate(_:)``, ``VerificationError/invalidChain(_:)``,
///    ``VerificationError/retryable(_:)``);
/// 5. the ES256 signature must verify (``VerificationError/invalidSignature(_:)``);
/// 6. identity: bundle id, App Apple ID, then environment (see the per-method documentation).
///
/// Validated chains are cached (keyed by the exact `x5c[0]`/`x5c[1]` strings, bounded, shared by all
/// tasks), so the usual cost of a payload is one ECDSA verification and a JSON decode. A cached chain
/// is reused only inside its certificates' common validity window, and online for at most 15 minutes.
///
/// Unlike Apple's libraries, there is no signature-skipping mode: `Xcode` and `LocalTesting`
/// payloads are accepted only if those environments are configured explicitly *and* the payload
/// carries a valid chain to a configured root (Xcode's StoreKit-testing JWS, with its one-certificate
/// `x5c`, therefore never verifies).
public final class SignedDataVerifier: Sendable {
    /// The bundle id every payload must name.
    public let bundleId: String
    /// The App Apple ID production payloads must name (nil only if Production is not accepted).
    public let appAppleId: Int64?
    /// The environments accepted (e.g. Production and Sandbox on one endpoint).
    public let environments: Set<AppStoreEnvironment>
    /// Whether chains are validated at the current time with OCSP revocation checks.
    public let onlineChecks: Bool

    let chainVerifier: AppStoreChainVerifier
    let headerCache: JWSHeaderCache
    let now: @Sendable () -> Date

    /// Creates a verifier.
    ///
    /// - Parameters:
    ///   - rootCertificates: DER bytes of the trusted roots (``AppleRootCertificates/appleRootCAG3``
    ///     in production; the simulator's root in tests). Roots in the payloads are never trusted.
    ///   - bundleId: the app's bundle id.
    ///   - appAppleId: the app's App Apple ID; required when `environments` contains Production.
    ///   - environments: the environments accepted.
    ///   - onlineChecks: validate at the current time with OCSP (needs `ocspRequester`); otherwise
    ///     validate at each payload's signed date without network access.
    ///   - ocspRequester: performs OCSP queries (e.g. `AsyncHTTPClientOCSPRequester`).
    ///   - chainCacheCapacity: how many validated chains to keep.
    ///   - now: the clock (injectable for tests).
    public init(
        rootCertificates: [Data],
        bundleId: String,
        appAppleId: Int64?,
        environments: Set<AppStoreEnvironment>,
        onlineChecks: Bool = false,
        ocspRequester: (any OCSPRequester)? = nil,
        chainCacheCapacity: Int = 64,
        now: @escaping @Sendable () -> Date = { Date() }
    ) throws(SignedDataVerifierConfigurationError) {
        guard !rootCertificates.isEmpty else { throw .noRootCertificates }
        guard !environments.isEmpty else { throw .noEnvironments }
        if environments.contains(.production), appAppleId == nil { throw .missingAppAppleId }
        if onlineChecks, ocspRequester == nil { throw .missingOCSPRequester }
        var roots: [Certificate] = []
        for (index, der) in rootCertificates.enumerated() {
            guard let root = try? Certificate(derEncoded: Array(der)) else {
                throw .invalidRootCertificate(index: index)
            }
            roots.append(root)
        }
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.environments = environments
        self.onlineChecks = onlineChecks
        self.chainVerifier = AppStoreChainVerifier(
            roots: roots, ocspRequester: onlineChecks ? ocspRequester : nil, cacheCapacity: chainCacheCapacity
        )
        self.headerCache = JWSHeaderCache(capacity: chainCacheCapacity)
        self.now = now
    }

    /// Counters of the chain cache (validations performed, cache hits, chains cached).
    public var statistics: VerificationStatistics { chainVerifier.cache.statistics }

    /// Full chain validations performed so far (a cache hit performs none).
    public var chainValidations: Int { statistics.chainValidations }

    /// Verifies `jws` cryptographically and decodes its payload as `Payload`; identity is the
    /// caller's business. `signedDate` extracts the payload's offline validation time.
    func verifySignature<Payload: Decodable>(
        _ jws: String, as type: Payload.Type, signedDate: (Payload) -> Date?
    ) async throws(VerificationError) -> Payload {
        try await verifySignatureKeepingJSON(jws, as: type, signedDate: signedDate).payload
    }

    /// ``verifySignature(_:as:signedDate:)``, also returning the verified payload's JSON bytes.
    func verifySignatureKeepingJSON<Payload: Decodable>(
        _ jws: String, as type: Payload.Type, signedDate: (Payload) -> Date?
    ) async throws(VerificationError) -> (payload: Payload, json: Data) {
        guard let parts = CompactJWS(jws) else {
            throw .invalidJWS("expected three non-empty Base64URL segments separated by dots")
        }
        let header = try headerCache.header(of: parts)
        guard header.alg == "ES256" else { throw .unsupportedAlgorithm(header.alg) }
        guard let x5c = header.x5c, x5c.count == 3 else { throw .invalidChainLength(header.x5c?.count) }

        if let name = JSONDuplicateKeys.firstDuplicate(in: parts.payload) {
            throw .invalidPayload("an object names \(VerificationError.quoted(name)) more than once")
        }
        let payload: Payload
        do {
            payload = try AppStoreJSON.decoder().decode(Payload.self, from: parts.payload)
        } catch {
            throw .invalidPayload(Self.describe(error))
        }

        let now = now()
        let validationTime = onlineChecks ? now : (signedDate(payload) ?? now)
        let leafKey = try await chainVerifier.leafKey(x5c: x5c, validationTime: validationTime, now: now)

        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: parts.signature) else {
            throw .invalidSignature("an ES256 signature is 64 bytes r‖s, this one has \(parts.signature.count) bytes")
        }
        guard leafKey.isValidSignature(signature, for: parts.signingInput) else {
            throw .invalidSignature("the signature does not match the header and payload")
        }
        return (payload, parts.payload)
    }

    /// A description of a decoding failure naming the field, never the values.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "not valid JSON" }
        func path(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
            return path.isEmpty ? "the top level" : "\"\(path)\""
        }
        switch error {
        case .typeMismatch(_, let context): return "wrong type at \(path(context))"
        case .valueNotFound(_, let context): return "missing value at \(path(context))"
        case .keyNotFound(let key, let context): return "missing key \"\(key.stringValue)\" in \(path(context))"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON" : "invalid value at \(path(context))"
        @unknown default: return "not valid JSON"
        }
    }
}

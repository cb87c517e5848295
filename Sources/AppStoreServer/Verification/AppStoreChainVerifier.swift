import Crypto
import Foundation
@_spi(FixedExpiryValidationTime) import X509

/// Validates the `x5c` chain of an App Store JWS and yields the leaf's P-256 key, caching results.
///
/// Validation uses swift-certificates' `Verifier` anchored in the configured roots only (`x5c[2]`
/// is ignored), with `RFC5280Policy` at the validation time, ``AppStoreOIDPolicy`` and, when online
/// checks are on, a hard-fail `OCSPVerifierPolicy`.
struct AppStoreChainVerifier: Sendable {
    /// Apple's freshness limit for a chain whose revocation status was checked online.
    static let onlineCacheLifetime: TimeInterval = 15 * 60

    let roots: CertificateStore
    /// From the earliest start to the latest end of the trusted roots' validity: no chain can be
    /// valid outside it, so a validation time outside it is refused before it reaches
    /// swift-certificates (whose time conversion traps on dates it cannot represent).
    let trustedPeriod: ClosedRange<Date>
    let ocspRequester: AnyOCSPRequester?
    let cache: VerifiedChainCache

    /// `roots` must not be empty (the verifier's initialiser checks).
    init(roots: [Certificate], ocspRequester: (any OCSPRequester)?, cacheCapacity: Int) {
        self.roots = CertificateStore(roots)
        let start = roots.map(\.notValidBefore).min() ?? .distantPast
        self.trustedPeriod = start...max(start, roots.map(\.notValidAfter).max() ?? start)
        self.ocspRequester = ocspRequester.map(AnyOCSPRequester.init)
        self.cache = VerifiedChainCache(capacity: cacheCapacity)
    }

    /// The leaf key of the chain `x5c` (exactly three entries, checked by the caller), valid at
    /// `validationTime`; `now` is the clock's current time (OCSP and cache freshness).
    func leafKey(x5c: [String], validationTime: Date, now: Date) async throws(VerificationError) -> P256.Signing.PublicKey {
        guard trustedPeriod.contains(validationTime) else {
            throw .invalidChain("the validation time (the payload's signed date) lies outside every trusted root's validity")
        }
        let key = VerifiedChainCache.Key(leaf: x5c[0], intermediate: x5c[1])
        let maximumAge = ocspRequester == nil ? nil : Self.onlineCacheLifetime
        if let cached = cache.lookup(key, validationTime: validationTime, now: now, maximumAge: maximumAge) {
            return cached.leafKey
        }
        let leaf = try Self.certificate(x5c[0], position: "leaf (x5c[0])")
        let intermediate = try Self.certificate(x5c[1], position: "intermediate (x5c[1])")
        cache.recordValidation()
        let chain = try await validate(leaf: leaf, intermediate: intermediate, validationTime: validationTime, now: now)
        guard let leafKey = P256.Signing.PublicKey(chain[0].publicKey) else {
            throw .invalidChain("the leaf key is not a P-256 key, so it cannot sign ES256")
        }
        let verified = VerifiedChain(
            leafKey: leafKey,
            notValidBefore: chain.map(\.notValidBefore).max() ?? validationTime,
            notValidAfter: chain.map(\.notValidAfter).min() ?? validationTime,
            validatedAt: now
        )
        cache.insert(verified, for: key)
        return leafKey
    }

    private func validate(
        leaf: Certificate, intermediate: Certificate, validationTime: Date, now: Date
    ) async throws(VerificationError) -> [Certificate] {
        let requester = ocspRequester
        var verifier = Verifier(rootCertificates: roots) {
            RFC5280Policy(fixedExpiryValidationTime: validationTime)
            AppStoreOIDPolicy()
            if let requester {
                OCSPVerifierPolicy(failureMode: .hard, requester: requester, fixedExpiryValidationTime: now)
            }
        }
        let result = await verifier.validate(leaf: leaf, intermediates: CertificateStore([intermediate]))
        switch result {
        case .validCertificate(let chain):
            let certificates = Array(chain)
            guard certificates.count == 3 else {
                throw .invalidChain("the validated chain has \(certificates.count) certificates instead of 3")
            }
            return certificates
        case .couldNotValidate(let failures):
            let reasons = failures.map { String(describing: $0.policyFailureReason) }
            if let network = reasons.first(where: { $0.contains(OCSPNetworkFailure.marker) }) {
                throw .retryable("the OCSP responder could not be reached (\(network.prefix(200)))")
            }
            guard let first = reasons.first else {
                throw .invalidChain("no chain leads from the leaf to a trusted root")
            }
            throw .invalidChain(String(first.prefix(300)))
        }
    }

    /// Decodes one standard-Base64 DER `x5c` entry.
    private static func certificate(_ base64: String, position: String) throws(VerificationError) -> Certificate {
        guard let der = Data(base64Encoded: base64) else {
            throw .invalidCertificate("the \(position) certificate is not standard Base64")
        }
        do {
            return try Certificate(derEncoded: Array(der))
        } catch {
            throw .invalidCertificate("the \(position) certificate is not a DER X.509 certificate")
        }
    }
}

/// A concrete `OCSPRequester` wrapping any requester, so the OCSP policy has one static type.
struct AnyOCSPRequester: OCSPRequester {
    let base: any OCSPRequester

    init(_ base: any OCSPRequester) {
        self.base = base
    }

    func query(request: [UInt8], uri: String) async -> OCSPRequesterQueryResult {
        await base.query(request: request, uri: uri)
    }
}

/// Counters of a ``SignedDataVerifier``'s chain cache, for tests and metrics.
public struct VerificationStatistics: Hashable, Sendable {
    /// Full certificate-chain validations performed (cache misses that reached swift-certificates).
    public var chainValidations: Int
    /// Verifications that reused a cached, still-valid chain (no certificate parsed).
    public var cacheHits: Int
    /// Chains currently cached.
    public var cachedChains: Int

    /// Counters with the given values.
    public init(chainValidations: Int = 0, cacheHits: Int = 0, cachedChains: Int = 0) {
        self.chainValidations = chainValidations
        self.cacheHits = cacheHits
        self.cachedChains = cachedChains
    }
}

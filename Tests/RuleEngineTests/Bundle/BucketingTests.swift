import RuleEngine
import Testing

@Suite("Bundle: bucketing, hashing and limits")
struct BucketingTests {
    /// Pinned vectors: first 8 bytes of SHA-256("salt:unit"), big-endian, mod 10000 (computed
    /// independently with Python's hashlib). Changing the function needs a new schema version.
    @Test("bucket vectors", arguments: [
        ("retention-holdout-2026", "1000000123456789", 4175),
        ("retention-holdout-2026", "2000000000000001", 4321),
        ("winback-depth-2026-12", "1000000123456789", 3559),
        ("retention-holdout-2026", "90000013", 119),
        ("retention-holdout-2026", "90000000", 7456),
        ("", "", 4368),
        ("s", "ü", 9370),
    ])
    func vectors(salt: String, unit: String, bucket: Int) {
        #expect(Bucketing.bucket(salt: salt, unit: unit) == bucket)
    }

    @Test("the bundle hash ignores file order but not content or names")
    func bundleHash() {
        let a = BundleSourceFile(path: "Rules/a.rules.yaml", text: "schema: 1\n")
        let b = BundleSourceFile(path: "Rules/catalog.yaml", text: "offers: []\n")
        let hash = BundleHash.compute([a, b])
        #expect(hash.hasPrefix("sha256:") && hash.count == 71)
        #expect(BundleHash.compute([b, a]) == hash)
        #expect(BundleHash.compute([BundleSourceFile(path: "elsewhere/a.rules.yaml", text: "schema: 1\n"), b]) == hash)
        #expect(BundleHash.compute([a, BundleSourceFile(path: "Rules/catalog.yaml", text: "offers: [] \n")]) != hash)
        #expect(BundleHash.compute([BundleSourceFile(path: "Rules/b.rules.yaml", text: "schema: 1\n"), b]) != hash)
    }

    @Test("in-memory limits count fixed grants plus recorded grants inside the window")
    func inMemoryLimits() {
        let limits = InMemoryLimits(fixed: [.offer("promo"): 3])
        limits.recordOffer("promo", customer: "c1", at: 1_000)
        limits.recordOffer("promo", customer: "c1", at: 5_000)
        #expect(limits.grantedCount(.offer("promo"), window: 10_000, now: 6_000) == 5)
        #expect(limits.grantedCount(.customer("c1"), window: 2_000, now: 6_000) == 1)
        #expect(limits.grantedCount(.customer("c2"), window: 10_000, now: 6_000) == 0)
        #expect(limits.grantedCount(.customer("c1"), window: 10_000, now: 500) == 0)
    }
}

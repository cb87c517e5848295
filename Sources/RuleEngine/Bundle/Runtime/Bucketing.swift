import Crypto

/// Deterministic buckets for holdouts and splits: the first 8 bytes of
/// SHA-256(`salt + ":" + unit`) read as a big-endian UInt64, modulo 10,000. The same salt and
/// unit always land in the same bucket on every machine; changing the function would reshuffle
/// every customer, so it may only change with a new `schema` version (the test vectors in
/// `BucketingTests` pin it).
public enum Bucketing {
    /// The number of buckets: bucket values are `0..<10_000` (basis points of the population).
    public static let bucketCount: UInt64 = 10_000

    /// The bucket of `unit` (e.g. an originalTransactionId) under `salt`.
    public static func bucket(salt: String, unit: String) -> Int {
        var hasher = SHA256()
        var key = salt
        key.append(":")
        key.append(unit)
        key.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
        let digest = hasher.finalize()
        var value: UInt64 = 0
        for byte in digest.prefix(8) { value = value << 8 | UInt64(byte) }
        return Int(value % bucketCount)
    }

    /// The split variant for `bucket` in `0..<10_000`: the first whose cumulative weight (percent,
    /// summing to 100) × 100 exceeds the bucket.
    public static func variantIndex(weights: [Int], bucket: Int) -> Int {
        var cumulative = 0
        for (index, weight) in weights.enumerated() {
            cumulative += weight * 100
            if bucket < cumulative { return index }
        }
        return weights.count - 1
    }
}

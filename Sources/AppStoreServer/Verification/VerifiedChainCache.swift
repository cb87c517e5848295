import Crypto
import Foundation
import Synchronization

/// What remains of a successfully validated chain: the leaf's signing key and when the result holds.
struct VerifiedChain: Sendable {
    /// The leaf certificate's public key (P-256 by construction).
    let leafKey: P256.Signing.PublicKey
    /// The latest `notBefore` of the three certificates.
    let notValidBefore: Date
    /// The earliest `notAfter` of the three certificates.
    let notValidAfter: Date
    /// When the validation (and, online, the OCSP check) ran, by the verifier's clock.
    let validatedAt: Date

    /// Whether `date` lies inside every certificate's validity period.
    func covers(_ date: Date) -> Bool {
        date >= notValidBefore && date <= notValidAfter
    }
}

/// A small, thread-safe cache of validated chains keyed by the exact `x5c[0]` and `x5c[1]` strings.
///
/// The root (`x5c[2]`) is not part of the key because it is never used: chains are anchored in the
/// verifier's configured roots only. A hit must still be valid at the caller's validation time
/// (offline: the payload's signed date must fall inside the chain's validity window) and, when a
/// freshness limit is given (online checks), not older than that limit, so revocation is re-checked.
/// When full, the entry inserted first is evicted.
final class VerifiedChainCache: Sendable {
    struct Key: Hashable, Sendable {
        let leaf: String
        let intermediate: String
    }

    private struct State {
        var entries: [Key: VerifiedChain] = [:]
        var insertionOrder: [Key] = []
        var statistics = VerificationStatistics()
    }

    let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// The cached chain for `key` if it covers `validationTime` and, with `maximumAge`, was
    /// validated no longer than `maximumAge` before `now`. Counts a hit.
    func lookup(_ key: Key, validationTime: Date, now: Date, maximumAge: TimeInterval?) -> VerifiedChain? {
        state.withLock { state in
            guard let chain = state.entries[key], chain.covers(validationTime) else { return nil }
            if let maximumAge {
                let age = now.timeIntervalSince(chain.validatedAt)
                guard age >= 0, age < maximumAge else { return nil }
            }
            state.statistics.cacheHits += 1
            return chain
        }
    }

    /// Counts a full validation (successful or not).
    func recordValidation() {
        state.withLock { $0.statistics.chainValidations += 1 }
    }

    /// Stores `chain`, replacing an older entry for the same key and evicting the oldest when full.
    func insert(_ chain: VerifiedChain, for key: Key) {
        state.withLock { state in
            if state.entries.updateValue(chain, forKey: key) != nil {
                state.insertionOrder.removeAll { $0 == key }
            } else if state.entries.count > capacity {
                let oldest = state.insertionOrder.removeFirst()
                state.entries.removeValue(forKey: oldest)
            }
            state.insertionOrder.append(key)
        }
    }

    var statistics: VerificationStatistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.cachedChains = state.entries.count
            return statistics
        }
    }
}

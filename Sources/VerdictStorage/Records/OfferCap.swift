import OTelSemanticConventions
import Tracing

/// A limit on offers granted, checked when a decision that grants one is stored: at most `max`
/// offers (made, not held out) decided since `since` in `scope`, counting the decisions of the
/// storing repository's app only.
public struct OfferCap: Sendable, Hashable {
    /// What the cap counts.
    public enum Scope: Sendable, Hashable {
        /// Offers granted to one customer (the bundle's customer unit).
        case customer(String)
        /// Grants of one offer.
        case offer(String)
    }

    public var scope: Scope
    public var max: Int
    public var since: Int64

    public init(scope: Scope, max: Int, since: Int64) {
        self.scope = scope
        self.max = max
        self.since = since
    }

    /// The lock's name within an app (caps are locked in this order, so two decisions never wait
    /// on each other).
    var lockName: String {
        switch scope {
        case .customer(let unit): "verdict-cap:customer:" + unit
        case .offer(let id): "verdict-cap:offer:" + id
        }
    }

    /// PostgreSQL's advisory lock key for the cap of `app`: the 64-bit FNV-1a hash of `app`'s
    /// UTF-8 bytes, a zero byte (never part of a bundle id, so no app and lock name run into
    /// another's), then ``lockName``'s. Caps are per app: the instances of one app serialize on
    /// the same key, and two apps' decisions take
    /// different keys (short of a 64-bit collision) and never wait on each other.
    /// Deterministic (unlike `Hasher`), so every process and version derives the same key.
    func lockKey(app: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in Array(app.utf8) + [0] + Array(lockName.utf8) {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }
}

extension OfferCap.Scope {
    /// The `offer_decisions` column and value the scope counts by.
    var column: (name: String, value: String) {
        switch self {
        case .customer(let unit): ("customer_unit", unit)
        case .offer(let id): ("offer_id", id)
        }
    }
}

/// What storing a decision came to.
public enum OfferDecisionInsert: Sendable, Equatable {
    /// Stored (or, for a notification decided before, the stored decision).
    case stored(OfferDecisionRecord)
    /// Nothing stored: `cap` was used up when the decision came to be stored.
    case capped(OfferCap)
}

extension OfferCap {
    /// What a trace may say of the cap: its kind, the offer's id and the maximum — never the
    /// customer unit, which may be the app's own customer identifier.
    var spanAttributes: SpanAttributes {
        var attributes = SpanAttributes()
        attributes.db.system.name = .postgresql
        attributes.db.query.summary = "SELECT pg_advisory_xact_lock"
        attributes["verdict.cap.max"] = max
        switch scope {
        case .customer: attributes["verdict.cap.scope"] = "customer"
        case .offer(let id):
            attributes["verdict.cap.scope"] = "offer"
            attributes["verdict.cap.offer_id"] = id
        }
        return attributes
    }
}

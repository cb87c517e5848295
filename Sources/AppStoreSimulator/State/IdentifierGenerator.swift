import Crypto
import Foundation

/// Deterministic identifiers from one counter: the same sequence of scenario operations always
/// yields the same transaction ids, web order line item ids, app transaction ids and notification
/// UUIDs, so tests can rely on them. Numeric ids look like Apple's (16 digits, disjoint ranges per
/// kind so an id never means two things). Apps served by one server draw from distinct
/// ``namespace``s, so an id never means two things across apps either, as at Apple.
struct IdentifierGenerator: Sendable {
    private var counter: UInt64 = 0
    private let seed: String
    /// The app's block of every numeric range (0 for the first app: `2000000000000001`, …; 1 for
    /// the second: `2001000000000001`, …) and a distinct UUID stream; at most 999.
    var namespace: UInt64 = 0

    /// A generator whose UUIDs derive from `seed` (distinct seeds give distinct UUID streams).
    init(seed: String = "verdict-simulator") {
        self.seed = seed
    }

    private mutating func next() -> UInt64 {
        counter += 1
        return counter
    }

    /// The next counter value placed in the namespace's block of a range.
    private mutating func next(in base: UInt64) -> UInt64 {
        base + namespace * 1_000_000_000_000 + next()
    }

    /// A new transaction id (`2000000000000001`, …).
    mutating func transactionId() -> String { String(next(in: 2_000_000_000_000_000)) }

    /// A new web order line item id.
    mutating func webOrderLineItemId() -> String { String(next(in: 5_000_000_000_000_000)) }

    /// A new app transaction id (one per customer and app).
    mutating func appTransactionId() -> String { String(next(in: 7_040_000_000_000_000)) }

    /// A new lowercase version-4-shaped UUID derived from the seed and counter.
    mutating func uuid() -> String {
        let stream = namespace == 0 ? seed : "\(seed)/\(namespace)"
        let digest = SHA256.hash(data: Data("\(stream)#\(next())".utf8))
        var bytes = Array(digest.prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4),
                     hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }
}

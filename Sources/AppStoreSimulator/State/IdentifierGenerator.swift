import Crypto
import Foundation

/// Deterministic identifiers from one counter: the same sequence of scenario operations always
/// yields the same transaction ids, web order line item ids, app transaction ids and notification
/// UUIDs, so tests can rely on them. Numeric ids look like Apple's (16 digits, disjoint ranges per
/// kind so an id never means two things).
struct IdentifierGenerator: Sendable {
    private var counter: UInt64 = 0
    private let seed: String

    /// A generator whose UUIDs derive from `seed` (distinct seeds give distinct UUID streams).
    init(seed: String = "verdict-simulator") {
        self.seed = seed
    }

    private mutating func next() -> UInt64 {
        counter += 1
        return counter
    }

    /// A new transaction id (`2000000000000001`, …).
    mutating func transactionId() -> String { String(2_000_000_000_000_000 + next()) }

    /// A new web order line item id.
    mutating func webOrderLineItemId() -> String { String(5_000_000_000_000_000 + next()) }

    /// A new app transaction id (one per customer and app).
    mutating func appTransactionId() -> String { String(7_040_000_000_000_000 + next()) }

    /// A new lowercase version-4-shaped UUID derived from the seed and counter.
    mutating func uuid() -> String {
        let digest = SHA256.hash(data: Data("\(seed)#\(next())".utf8))
        var bytes = Array(digest.prefix(16))
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let parts = [hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4),
                     hex.dropFirst(16).prefix(4), hex.dropFirst(20)]
        return parts.joined(separator: "-")
    }
}

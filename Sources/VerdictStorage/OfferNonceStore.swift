/// The nonces of promotional offer signatures, so that none is issued twice.
/// Part of ``VerdictRepository``: every method is one database transaction; times are UNIX milliseconds.
///
/// Process-wide, not per app: a nonce is a random UUID that must never be issued twice, whichever
/// app's offer it signs, so one reservation covers every app (and expired ones are removed for all).
public protocol OfferNonceStore: Sendable {
    /// Reserves `nonce` for an offer signature until `expiresAt`. Returns false (and changes
    /// nothing) when the nonce was reserved before and has not expired, so a nonce is never issued
    /// twice. Expired reservations are removed in the same transaction.
    func reserveOfferNonce(_ nonce: String, issuedAt: Int64, expiresAt: Int64) async throws -> Bool
}

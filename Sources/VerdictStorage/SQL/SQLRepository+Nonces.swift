extension SQLRepository {
    // MARK: Offer signature nonces

    func reserveOfferNonce(_ nonce: String, issuedAt: Int64, expiresAt: Int64) async throws -> Bool {
        try await transaction { db in
            _ = try await db.query("DELETE FROM offer_nonces WHERE expires_at <= $1", .integer(issuedAt))
            return try await !db.query("""
                INSERT INTO offer_nonces (nonce, issued_at, expires_at) VALUES ($1, $2, $3)
                ON CONFLICT (nonce) DO NOTHING
                RETURNING nonce
                """, .text(nonce), .integer(issuedAt), .integer(expiresAt)).isEmpty
        }
    }
}

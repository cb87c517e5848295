import Foundation
import Testing
import VerdictTestSupport

@testable import VerdictStorage

@Suite("Storage: offer signature nonces")
struct OfferNonceTests {
    @Test("a nonce is reserved once until it expires; expired reservations are purged", arguments: TestBackend.selected)
    func reserveOnce(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ async throws in
            let day: Int64 = 86_400_000
            #expect(try await repository.reserveOfferNonce("n-1", issuedAt: 1_000, expiresAt: 1_000 + day) == true)
            #expect(try await repository.reserveOfferNonce("n-1", issuedAt: 2_000, expiresAt: 2_000 + day) == false)
            #expect(try await repository.reserveOfferNonce("n-2", issuedAt: 2_000, expiresAt: 2_000 + day) == true)
            // Still reserved one millisecond before expiry…
            #expect(try await repository.reserveOfferNonce("n-1", issuedAt: day, expiresAt: 2 * day) == false)
            // …and free again once Apple has forgotten it.
            #expect(try await repository.reserveOfferNonce("n-1", issuedAt: 1_000 + day, expiresAt: 1_000 + 2 * day) == true)
        }
    }

    @Test("concurrent reservations of one nonce: exactly one wins", arguments: TestBackend.selected)
    func concurrentReservations(_ backend: TestBackend) async throws {
        try await TestDatabase.withRepository(backend) { repository, _ async throws in
            let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await repository.reserveOfferNonce("same", issuedAt: 5, expiresAt: 10_000) }
                }
                return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(wins == 1)
        }
    }
}

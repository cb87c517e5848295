import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

/// Per-endpoint rate limits: 429, error 4290000 and `Retry-After` in UNIX milliseconds.
@Suite struct RateLimitTests {
    @Test func overTheLimitAnswers429WithRetryAfterTheClientParses() async throws {
        try await withSimulator { harness in
            let id = try await harness.buyConsumable()
            harness.server.rateLimiter.setLimit(RateLimit(limit: 2, windowSeconds: 3600), for: .getTransactionInfo)
            let windowStart = harness.store.now
            _ = try await harness.client.getTransactionInfo(transactionId: id)
            _ = try await harness.client.getTransactionInfo(transactionId: id)
            let failure = try #require(await apiFailure { _ = try await harness.client.getTransactionInfo(transactionId: id) })
            #expect(failure.httpStatus == 429)
            #expect(failure.apiError == .rateLimitExceeded)
            #expect(failure.errorMessage == "Rate limit exceeded.")
            #expect(failure.retryAfter == windowStart.addingTimeInterval(3600))
            #expect(failure.isRetryable)
        }
    }

    @Test func retryAfterHeaderIsUnixMilliseconds() async throws {
        try await withSimulator { harness in
            let id = try await harness.buyConsumable()
            harness.server.rateLimiter.setLimit(RateLimit(limit: 0, windowSeconds: 90), for: .getTransactionInfo)
            let response = try await harness.raw("GET", "/inApps/v1/transactions/\(id)", bearer: try harness.bearer())
            #expect(response.status == 429)
            #expect(response.header("Retry-After") == String(harness.store.now.addingTimeInterval(90).appStoreMilliseconds))
        }
    }

    @Test func limitIsPerEndpointAndTheWindowResets() async throws {
        try await withSimulator { harness in
            let id = try await harness.buyConsumable()
            harness.server.rateLimiter.setLimit(RateLimit(limit: 1, windowSeconds: 60), for: .getTransactionInfo)
            _ = try await harness.client.getTransactionInfo(transactionId: id)
            _ = try await harness.client.getTransactionHistory(transactionId: id)
            #expect(await apiFailure { _ = try await harness.client.getTransactionInfo(transactionId: id) }?.httpStatus == 429)
            harness.store.clock.advance(by: 61)
            _ = try await harness.client.getTransactionInfo(transactionId: id)
        }
    }
}

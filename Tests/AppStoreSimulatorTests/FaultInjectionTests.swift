import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

/// Injected faults: canned errors, 5xx, rate limits with `Retry-After`, dropped connections, latency.
@Suite struct FaultInjectionTests {
    @Test func unknownErrorCodeIsKeptRaw() async throws {
        try await withSimulator { harness in
            let id = try await harness.buyConsumable()
            harness.server.faults.add(.error(status: 400, errorCode: 9_990_000, errorMessage: "Testing error.",
                                             endpoint: .getTransactionInfo))
            let failure = try #require(await apiFailure { _ = try await harness.client.getTransactionInfo(transactionId: id) })
            #expect(failure.httpStatus == 400)
            #expect(failure.rawErrorCode == 9_990_000)
            #expect(failure.apiError?.isKnown == false)
            #expect(failure.errorMessage == "Testing error.")
        }
    }

    @Test func retryableServerErrorThenSuccess() async throws {
        try await withSimulator { harness in
            let id = try await harness.buyConsumable()
            harness.server.faults.add(.generalInternalRetryable(.getTransactionInfo, count: 2))
            for _ in 0..<2 {
                let failure = try #require(await apiFailure { _ = try await harness.client.getTransactionInfo(transactionId: id) })
                #expect(failure.httpStatus == 500)
                #expect(failure.apiError == .generalInternalRetryable)
                #expect(failure.isRetryable)
            }
            let response = try await harness.client.getTransactionInfo(transactionId: id)
            #expect(response.signedTransactionInfo != nil)
        }
    }

    @Test func serviceUnavailableHasNoBody() async throws {
        try await withSimulator { harness in
            let id = try await harness.buyConsumable()
            harness.server.faults.add(.serviceUnavailable(nil))
            let response = try await harness.raw("GET", "/inApps/v1/transactions/\(id)", bearer: try harness.bearer())
            #expect(response.status == 503)
            #expect(response.body.isEmpty)
        }
    }

    @Test func rateLimitedFaultAnswers429WithRetryAfterFromTheWallClock() async throws {
        try await withSimulator { harness in
            let id = try await harness.buyConsumable()
            harness.server.faults.add(.rateLimited(retryAfterMilliseconds: 1_500, endpoint: .getTransactionInfo))
            let before = Date().appStoreMilliseconds
            let response = try await harness.raw("GET", "/inApps/v1/transactions/\(id)", bearer: try harness.bearer())
            let after = Date().appStoreMilliseconds
            #expect(response.status == 429)
            let payload = try AppStoreJSON.decoder().decode(ErrorPayload.self, from: response.body)
            #expect(payload.errorCode == 4_290_000)
            #expect(payload.errorMessage == "Rate limit exceeded.")
            let retryAfter = try #require(response.header("Retry-After").flatMap { Int64($0) })
            #expect((before + 1_500)...(after + 1_500) ~= retryAfter)
            _ = try await harness.client.getTransactionInfo(transactionId: id)
        }
    }

    @Test func rateLimitedFaultIsParsedByTheClientAndCounted() async throws {
        try await withSimulator { harness in
            let id = try await harness.buyConsumable()
            harness.server.faults.add(.rateLimited(retryAfterMilliseconds: 60_000, endpoint: .sendConsumptionInformation, count: 2))
            let request = ConsumptionRequest(customerConsented: true, deliveryStatus: .delivered, sampleContentProvided: false)
            for _ in 0..<2 {
                let failure = try #require(await apiFailure {
                    try await harness.client.sendConsumptionInformation(transactionId: id, request: request)
                })
                #expect(failure.httpStatus == 429)
                #expect(failure.apiError == .rateLimitExceeded)
                #expect(failure.isRetryable)
                let retryAfter = try #require(failure.retryAfter)
                #expect(retryAfter > Date().addingTimeInterval(50))
                #expect(retryAfter < Date().addingTimeInterval(70))
            }
            try await harness.client.sendConsumptionInformation(transactionId: id, request: request)
            #expect(await harness.store.receivedConsumptionInformation().count == 1)
            #expect(await harness.store.rejectedConsumptionInformation().isEmpty)
        }
    }

    @Test func errorFaultWithoutRetryAfterSendsNoHeader() async throws {
        try await withSimulator { harness in
            let id = try await harness.buyConsumable()
            harness.server.faults.add(.error(status: 429, errorCode: 4_290_000, errorMessage: "Rate limit exceeded."))
            let response = try await harness.raw("GET", "/inApps/v1/transactions/\(id)", bearer: try harness.bearer())
            #expect(response.status == 429)
            #expect(response.header("Retry-After") == nil)
        }
    }

    @Test func faultForAnotherEndpointDoesNotApply() async throws {
        try await withSimulator { harness in
            let id = try await harness.buyConsumable()
            harness.server.faults.add(.generalInternal(.getRefundHistory))
            _ = try await harness.client.getTransactionInfo(transactionId: id)
            #expect(await apiFailure { _ = try await harness.client.getRefundHistory(transactionId: id) }?.rawErrorCode == 5_000_000)
        }
    }

    @Test func droppedConnectionIsATransportFailure() async throws {
        try await withSimulator { harness in
            let id = try await harness.buyConsumable()
            harness.server.faults.add(.dropConnection(.getTransactionInfo))
            let failure = try #require(await apiFailure { _ = try await harness.client.getTransactionInfo(transactionId: id) })
            #expect(failure.kind == .transport)
            #expect(failure.httpStatus == nil)
            _ = try await harness.client.getTransactionInfo(transactionId: id)
        }
    }

    @Test func latencyDelaysButAnswers() async throws {
        try await withSimulator { harness in
            let id = try await harness.buyConsumable()
            harness.server.faults.add(.latency(milliseconds: 50, endpoint: .getTransactionInfo))
            _ = try await harness.client.getTransactionInfo(transactionId: id)
            #expect(harness.server.faults.pending.isEmpty)
        }
    }
}

import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

/// Injected faults: canned errors, 5xx, dropped connections, latency.
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

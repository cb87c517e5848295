import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

/// Seat refunds: `REFUND` / `SEATS`, `revokedSeatQuantity` counting every seat refunded, the
/// transaction valid until every seat is gone.
@Suite struct SeatRefundTests {
    @Test func seatRefundKeepsTheTransactionValid() async throws {
        try await withSimulator { harness in
            let purchase = try await MultiSeat.purchase(harness)
            let id = try #require(purchase.transactionId)
            _ = try await harness.store.requestRefund(transactionId: id, reason: .unsatisfiedWithPurchase)
            let refund = try await MultiSeat.verified(harness, try await harness.store.refundSeats(transactionId: id, seats: 2))
            #expect(refund.payload.notificationType == .refund)
            #expect(refund.payload.subtype == .seats)
            #expect(refund.payload.data?.status == .active)
            let transaction = try #require(refund.transaction)
            #expect(transaction.multiSeatInfo?.revokedSeatQuantity == 2)
            #expect(transaction.revokedSeatQuantity == nil)
            #expect(transaction.resolvedRevokedSeatQuantity == 2)
            #expect(transaction.revocationDate == nil)
            #expect(transaction.revocationReason == nil)
            #expect(transaction.quantity == 8)
            #expect(transaction.chargedAmount == 73_920)
            #expect(refund.renewalInfo?.renewalQuantity == 6)
            #expect(await harness.store.refundRequest(transactionId: id)?.outcome == .granted)

            // Get Refund History lists the partly refunded transaction.
            let refunds = try await harness.client.getRefundHistory(transactionId: id)
            let listed = try await SignedScenarioTests.verifier(harness).verifyTransaction(
                try #require(refunds.signedTransactions?.first))
            #expect(listed.transactionId == id)
            #expect(listed.resolvedRevokedSeatQuantity == 2)
        }
    }

    @Test func refundingEverySeatRevokesTheTransactionAndThePeriod() async throws {
        try await withSimulator { harness in
            let purchase = try await MultiSeat.purchase(harness)
            let id = try #require(purchase.transactionId)
            _ = try await harness.store.refundSeats(transactionId: id, seats: 3)
            harness.store.clock.advance(by: 60)
            let last = try await MultiSeat.verified(
                harness, try await harness.store.refundSeats(transactionId: id, seats: 5, reason: .refundedDueToIssue))
            #expect(last.transaction?.multiSeatInfo?.revokedSeatQuantity == 8)
            #expect(last.transaction?.revocationDate == harness.store.now)
            #expect(last.transaction?.revocationReason == .refundedDueToIssue)
            #expect(last.payload.data?.status == .revoked)
            await #expect(throws: SimulatorError.self) {
                try await harness.store.refundSeats(transactionId: id, seats: 1)
            }
        }
    }

    @Test func refundingASeatAdditionLeavesThePeriodValid() async throws {
        try await withSimulator { harness in
            let original = try #require(try await MultiSeat.purchase(harness).originalTransactionId)
            let addition = try #require(try await harness.store.addSeats(originalTransactionId: original, seats: 4).transactionId)
            let refund = try await harness.store.refundSeats(transactionId: addition, seats: 4)
            #expect(refund.transaction?.revocationDate != nil)
            #expect(refund.notification.payload.data?.status == .active)
            #expect(refund.renewalInfo?.renewalQuantity == 8)
            #expect(await harness.store.status(originalTransactionId: original) == .active)

            // A full refund of the first transaction too revokes the period.
            let first = try #require(try await MultiSeat.history(harness, of: original).first?.transactionId)
            let revoked = try await harness.store.grantRefund(transactionId: first)
            #expect(revoked.notification.payload.data?.status == .revoked)
        }
    }

    @Test func seatRefundsAreChecked() async throws {
        try await withSimulator { harness in
            let id = try #require(try await MultiSeat.purchase(harness, seats: 2).transactionId)
            await #expect(throws: SimulatorError.self) { try await harness.store.refundSeats(transactionId: id, seats: 3) }
            await #expect(throws: SimulatorError.self) { try await harness.store.refundSeats(transactionId: id, seats: 0) }
            let single = try await harness.buyConsumable()
            await #expect(throws: SimulatorError.self) { try await harness.store.refundSeats(transactionId: single, seats: 1) }
            await #expect(throws: SimulatorError.unknownTransaction("1")) {
                try await harness.store.refundSeats(transactionId: "1", seats: 1)
            }
        }
    }

    @Test func controlAPIRefundsSeats() async throws {
        try await withSimulator { harness in
            let id = try #require(try await MultiSeat.purchase(harness).transactionId)
            let body = #"{"transactionId":"\#(id)","seats":3,"reason":1}"#
            let response = try await harness.raw("POST", "/simulator/scenarios/refund-seats", body: Data(body.utf8), bearer: nil)
            #expect(response.status == 200)
            let result = try AppStoreJSON.decoder().decode(ScenarioResult.self, from: response.body)
            #expect(result.notification.subtype == .seats)
            #expect(result.transaction?.resolvedRevokedSeatQuantity == 3)
        }
    }
}

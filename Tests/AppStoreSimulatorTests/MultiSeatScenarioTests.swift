import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

/// Multiseat purchases, seat additions and seat reductions, through the signed notifications and
/// the API, as a service reads them.
@Suite struct MultiSeatScenarioTests {
    /// The worked example: 8 seats (5 × 9.99 + 3 × 7.99 = 73.92), then 13 days later the total
    /// raised to 12 (2 × 7.99 + 2 × 5.99 = 27.96): a period of 12 seats costing 101.88.
    @Test func workedExampleEndToEnd() async throws {
        try await withSimulator { harness in
            let purchase = try await MultiSeat.verified(harness, try await MultiSeat.purchase(harness))
            #expect(purchase.payload.notificationType == .subscribed)
            #expect(purchase.payload.subtype == .initialBuy)
            let first = try #require(purchase.transaction)
            #expect(first.quantity == 8)
            #expect(first.price == 9240)
            #expect(first.multiSeatInfo?.priceTiers == [MultiSeat.tier(9990, 5), MultiSeat.tier(7990, 3)])
            #expect(first.multiSeatInfo?.invitationManagement == .apple)
            #expect(first.chargedAmount == 73_920)
            #expect(first.resolvedAdditionalTransactionReason == nil)
            #expect(first.resolvedRevokedSeatQuantity == nil)
            let renewal = try #require(purchase.renewalInfo)
            #expect(renewal.renewalQuantity == 8)
            #expect(renewal.renewalPrice == 9240)
            #expect(renewal.renewalAmount == 73_920)

            harness.store.clock.advance(by: 13 * 86400)
            let original = try #require(first.originalTransactionId)
            let added = try await MultiSeat.verified(
                harness, try await harness.store.addSeats(originalTransactionId: original, seats: 4))
            #expect(added.payload.notificationType == .didChangeRenewalPref)
            #expect(added.payload.subtype == .increaseQuantity)
            let addition = try #require(added.transaction)
            #expect(addition.originalTransactionId == original)
            #expect(addition.transactionId != first.transactionId)
            #expect(addition.webOrderLineItemId != first.webOrderLineItemId)
            #expect(addition.expiresDate == first.expiresDate)
            #expect(addition.purchaseDate == harness.store.now)
            #expect(addition.transactionReason == .purchase)
            #expect(addition.additionalTransactionReason == .seatAddition)
            #expect(addition.quantity == 4)
            #expect(addition.price == 6990)
            #expect(addition.multiSeatInfo?.priceTiers == [MultiSeat.tier(7990, 2), MultiSeat.tier(5990, 2)])
            #expect(addition.chargedAmount == 27_960)
            #expect(added.renewalInfo?.renewalQuantity == 12)
            #expect(added.renewalInfo?.renewalAmount == 101_880)
            #expect(added.renewalInfo?.multiSeatInfo?.renewalPriceTiers
                == [MultiSeat.tier(9990, 5), MultiSeat.tier(7990, 5), MultiSeat.tier(5990, 2)])

            // Read back from the API: the first transaction now says SEAT_ADDITION too.
            let period = try await MultiSeat.history(harness, of: original)
            #expect(period.map(\.transactionId) == [first.transactionId, addition.transactionId])
            #expect(period.allSatisfy { $0.resolvedAdditionalTransactionReason == .seatAddition })
            #expect(period.first?.chargedAmount == 73_920)
            #expect(period.compactMap(\.chargedAmount).reduce(0, +) == 101_880)
            #expect(period.compactMap(\.seatCount).reduce(0, +) == 12)
            #expect(Set(period.map(\.expiresDate)).count == 1)
        }
    }

    @Test func renewalAfterAnAdditionIsOneTransactionForEverySeat() async throws {
        try await withSimulator { harness in
            let original = try #require(try await MultiSeat.purchase(harness).originalTransactionId)
            harness.store.clock.advance(by: 13 * 86400)
            _ = try await harness.store.addSeats(originalTransactionId: original, seats: 4)
            harness.store.clock.advance(by: 18 * 86400)
            let renewed = try await MultiSeat.verified(harness, try await harness.store.renew(originalTransactionId: original))
            let transaction = try #require(renewed.transaction)
            #expect(transaction.transactionReason == .renewal)
            #expect(transaction.quantity == 12)
            #expect(transaction.chargedAmount == 101_880)
            #expect(transaction.price == 8490)
            #expect(transaction.additionalTransactionReason == nil)
        }
    }

    @Test func reductionTakesEffectAtTheNextRenewal() async throws {
        try await withSimulator { harness in
            let purchase = try await MultiSeat.purchase(harness, seats: 12)
            let original = try #require(purchase.originalTransactionId)
            let reduced = try await MultiSeat.verified(
                harness, try await harness.store.reduceSeats(originalTransactionId: original, seats: 5))
            #expect(reduced.payload.notificationType == .didChangeRenewalPref)
            #expect(reduced.payload.subtype == .decreaseQuantity)
            #expect(reduced.transaction?.transactionId == purchase.transactionId)
            #expect(reduced.transaction?.quantity == 12)
            #expect(reduced.renewalInfo?.renewalQuantity == 7)
            #expect(reduced.renewalInfo?.multiSeatInfo?.renewalPriceTiers == [MultiSeat.tier(9990, 5), MultiSeat.tier(7990, 2)])
            #expect(reduced.renewalInfo?.renewalAmount == 65_930)
            #expect(reduced.renewalInfo?.renewalPrice == 9419)
            #expect(await harness.store.latestTransaction(originalTransactionId: original)?.quantity == 12)

            harness.store.clock.advance(by: 31 * 86400)
            let renewed = try await harness.store.renew(originalTransactionId: original)
            #expect(renewed.transaction?.quantity == 7)
            #expect(renewed.transaction?.chargedAmount == 65_930)
        }
    }

    @Test func seatChangeNotificationTypeIsAParameter() async throws {
        try await withSimulator { harness in
            let original = try #require(try await MultiSeat.purchase(harness).originalTransactionId)
            let increase = try await harness.store.addSeats(originalTransactionId: original, seats: 1,
                                                            notificationType: .didChangeRenewalStatus)
            #expect(increase.notification.notificationType == .didChangeRenewalStatus)
            #expect(increase.notification.subtype == .increaseQuantity)
            let decrease = try await harness.store.reduceSeats(originalTransactionId: original, seats: 1,
                                                               notificationType: .offerRedeemed)
            #expect(decrease.notification.payload.notificationType == .offerRedeemed)
            #expect(decrease.notification.payload.subtype == .decreaseQuantity)
        }
    }

    @Test func seatChangesAreRefusedWhereTheyMakeNoSense() async throws {
        try await withSimulator { harness in
            let single = try #require(try await harness.store.subscribe(
                SubscribeRequest(productId: "com.example.monthly")).originalTransactionId)
            await #expect(throws: SimulatorError.invalidState("the subscription is not multiseat")) {
                try await harness.store.addSeats(originalTransactionId: single, seats: 1)
            }
            let original = try #require(try await MultiSeat.purchase(harness, seats: 3).originalTransactionId)
            await #expect(throws: SimulatorError.self) {
                try await harness.store.reduceSeats(originalTransactionId: original, seats: 3)
            }
            await #expect(throws: SimulatorError.self) {
                try await harness.store.addSeats(originalTransactionId: original, seats: 0)
            }
            await #expect(throws: SimulatorError.self) {
                try await harness.store.renew(originalTransactionId: original, price: 1990)
            }
            _ = try await harness.store.expire(originalTransactionId: original)
            await #expect(throws: SimulatorError.invalidState("only an active subscription adds seats")) {
                try await harness.store.addSeats(originalTransactionId: original, seats: 1)
            }
        }
    }

    @Test func purchaseRequestsAreChecked() async throws {
        try await withSimulator { harness in
            let badTiers = SeatPricing(tiers: [SeatPricing.Tier(firstSeat: 2, price: 9990)])
            await #expect(throws: SimulatorError.invalidRequest("seat pricing needs a first tier from seat 1")) {
                try await harness.store.subscribe(SubscribeRequest(productId: "p", seats: 2, seatPricing: badTiers))
            }
            let unordered = SeatPricing(tiers: [SeatPricing.Tier(firstSeat: 1, price: 9990), SeatPricing.Tier(firstSeat: 1, price: 1)])
            await #expect(throws: SimulatorError.invalidRequest("seat pricing tiers must start at increasing seats")) {
                try await harness.store.subscribe(SubscribeRequest(productId: "p", seats: 2, seatPricing: unordered))
            }
            await #expect(throws: SimulatorError.self) {
                try await harness.store.subscribe(SubscribeRequest(productId: "p", seats: 0))
            }
            await #expect(throws: SimulatorError.self) {
                try await harness.store.subscribe(SubscribeRequest(productId: "p", offer: .freeTrial(.oneWeek), seats: 2))
            }
            await #expect(throws: SimulatorError.self) {
                try await harness.store.subscribe(SubscribeRequest(productId: "p", invitationManagement: .developer))
            }
            #expect(await harness.store.notificationLog().isEmpty)
        }
    }

    @Test func flatPriceWithoutTiersAndSingleSeatPurchasesUnchanged() async throws {
        try await withSimulator { harness in
            let flat = try await harness.store.subscribe(SubscribeRequest(
                productId: "com.example.team", price: 4990, seats: 3, invitationManagement: .developer))
            #expect(flat.transaction?.multiSeatInfo?.priceTiers == [MultiSeat.tier(4990, 3)])
            #expect(flat.transaction?.multiSeatInfo?.invitationManagement == .developer)
            #expect(flat.transaction?.price == 4990)
            #expect(flat.transaction?.chargedAmount == 14_970)

            let single = try await harness.store.subscribe(SubscribeRequest(productId: "com.example.monthly", price: 4990))
            #expect(single.transaction?.quantity == 1)
            #expect(single.transaction?.multiSeatInfo == nil)
            #expect(single.renewalInfo?.renewalQuantity == nil)
            #expect(single.renewalInfo?.multiSeatInfo == nil)
            #expect(single.renewalInfo?.renewalPrice == 4990)
        }
    }

    @Test func averagePriceRoundsToTheNearestMilliunit() {
        #expect(SeatPricing.averagePrice(of: [MultiSeat.tier(1000, 2), MultiSeat.tier(1001, 1)]) == 1000)
        #expect(SeatPricing.averagePrice(of: [MultiSeat.tier(1000, 1), MultiSeat.tier(1001, 1)]) == 1001)
        #expect(SeatPricing.averagePrice(of: [MultiSeat.tier(1000, 2), MultiSeat.tier(1002, 1)]) == 1001)
        #expect(SeatPricing.averagePrice(of: []) == nil)
        #expect(SeatPricing.averagePrice(of: [MultiSeat.tier(Int64.max, 2)]) == nil)
        #expect(MultiSeat.pricing.priceTiers(firstSeat: 4, count: 10)
            == [MultiSeat.tier(9990, 2), MultiSeat.tier(7990, 5), MultiSeat.tier(5990, 3)])
        #expect(MultiSeat.pricing.priceTiers(firstSeat: 1, count: 0).isEmpty)
    }

    @Test func controlAPISellsAndAddsSeats() async throws {
        try await withSimulator { harness in
            let body = #"{"productId":"com.example.team","seats":8,"invitationManagement":"DEVELOPER","seatPricing":{"tiers":[{"firstSeat":1,"price":9990},{"firstSeat":6,"price":7990},{"firstSeat":11,"price":5990}]}}"#
            let bought = try await harness.raw("POST", "/simulator/scenarios/subscribe", body: Data(body.utf8), bearer: nil)
            #expect(bought.status == 200)
            let purchase = try AppStoreJSON.decoder().decode(ScenarioResult.self, from: bought.body)
            #expect(purchase.transaction?.chargedAmount == 73_920)
            #expect(purchase.transaction?.multiSeatInfo?.invitationManagement == .developer)
            let original = try #require(purchase.originalTransactionId)
            let add = #"{"originalTransactionId":"\#(original)","seats":4}"#
            let added = try await harness.raw("POST", "/simulator/scenarios/add-seats", body: Data(add.utf8), bearer: nil)
            #expect(added.status == 200)
            let addition = try AppStoreJSON.decoder().decode(ScenarioResult.self, from: added.body)
            #expect(addition.transaction?.chargedAmount == 27_960)
            #expect(addition.notification.subtype == .increaseQuantity)
            let reduce = #"{"originalTransactionId":"\#(original)","seats":2,"notificationType":"DID_CHANGE_RENEWAL_STATUS"}"#
            let reduced = try await harness.raw("POST", "/simulator/scenarios/reduce-seats", body: Data(reduce.utf8), bearer: nil)
            let reduction = try AppStoreJSON.decoder().decode(ScenarioResult.self, from: reduced.body)
            #expect(reduction.notification.notificationType == .didChangeRenewalStatus)
            #expect(reduction.renewalInfo?.renewalQuantity == 10)
            let tooMany = #"{"originalTransactionId":"\#(original)","seats":10}"#
            #expect(try await harness.raw("POST", "/simulator/scenarios/reduce-seats", body: Data(tooMany.utf8), bearer: nil).status == 400)
        }
    }
}

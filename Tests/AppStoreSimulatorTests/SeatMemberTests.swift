import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

/// Members of Apple-hosted groups (`ASSIGNED` subscriptions of their own), `ASSIGNMENT_REVOKE`,
/// and `UNCLAIM_SEATS` for developer-hosted ones.
@Suite struct SeatMemberTests {
    @Test func memberGetsAnAssignedSubscriptionRepeatingTheGroupsSeats() async throws {
        try await withSimulator { harness in
            let purchase = try await MultiSeat.purchase(harness)
            let original = try #require(purchase.originalTransactionId)
            _ = try await harness.store.addSeats(originalTransactionId: original, seats: 4)
            let token = UUID()
            let assigned = try await MultiSeat.verified(harness, try await harness.store.assignMember(
                purchaserOriginalTransactionId: original, appAccountToken: token))
            #expect(assigned.payload.notificationType == .subscribed)
            #expect(assigned.payload.subtype == .initialBuy)
            let member = try #require(assigned.transaction)
            #expect(member.inAppOwnershipType == .assigned)
            #expect(member.originalTransactionId == member.transactionId)
            #expect(member.originalTransactionId != original)
            #expect(member.appTransactionId != purchase.transaction?.appTransactionId)
            #expect(member.appAccountToken == token)
            #expect(member.quantity == 12)
            #expect(member.multiSeatInfo?.priceTiers
                == [MultiSeat.tier(9990, 5), MultiSeat.tier(7990, 5), MultiSeat.tier(5990, 2)])
            #expect(member.multiSeatInfo?.invitationManagement == .apple)
            #expect(member.chargedAmount == 101_880)
            #expect(member.price == 8490)
            #expect(member.expiresDate == purchase.transaction?.expiresDate)
            #expect(assigned.renewalInfo?.renewalQuantity == 12)
            #expect(assigned.renewalInfo?.renewalAmount == 101_880)
            let memberId = try #require(member.originalTransactionId)
            #expect(await harness.store.memberOriginalTransactionIds(purchaserOriginalTransactionId: original) == [memberId])

            // The API serves the member's own history and status.
            #expect(try await MultiSeat.history(harness, of: memberId).map(\.transactionId) == [memberId])
            let statuses = try await harness.client.getAllSubscriptionStatuses(transactionId: memberId)
            let item = try #require(statuses.data?.first?.lastTransactions?.first)
            #expect(item.originalTransactionId == memberId)
            #expect(item.status == .active)
            let signed = try await SignedScenarioTests.verifier(harness).verifyTransaction(try #require(item.signedTransactionInfo))
            #expect(signed.inAppOwnershipType == .assigned)
        }
    }

    @Test func membersRenewAndExpireWithTheGroup() async throws {
        try await withSimulator { harness in
            let original = try #require(try await MultiSeat.purchase(harness, seats: 3).originalTransactionId)
            let first = try #require(try await harness.store.assignMember(purchaserOriginalTransactionId: original).originalTransactionId)
            let second = try #require(try await harness.store.assignMember(purchaserOriginalTransactionId: original).originalTransactionId)
            harness.store.clock.advance(by: 31 * 86400)
            let renewal = try await harness.store.renew(originalTransactionId: original)
            let log = await harness.store.notificationLog().suffix(3)
            #expect(log.map(\.notificationType) == [.didRenew, .didRenew, .didRenew])
            #expect(log.map(\.originalTransactionId) == [original, first, second])
            let renewed = try #require(await harness.store.latestTransaction(originalTransactionId: first))
            #expect(renewed.transactionReason == .renewal)
            #expect(renewed.inAppOwnershipType == .assigned)
            #expect(renewed.expiresDate == renewal.transaction?.expiresDate)
            #expect(renewed.quantity == 3)

            _ = try await harness.store.expire(originalTransactionId: original)
            #expect(await harness.store.status(originalTransactionId: first) == .expired)
            #expect(await harness.store.status(originalTransactionId: second) == .expired)
            #expect(await harness.store.notificationLog().suffix(2).map(\.notificationType) == [.expired, .expired])
            #expect(await harness.store.memberOriginalTransactionIds(purchaserOriginalTransactionId: original).isEmpty)
        }
    }

    @Test func revokingAMemberIsAssignmentRevoke() async throws {
        try await withSimulator { harness in
            let original = try #require(try await MultiSeat.purchase(harness, seats: 1).originalTransactionId)
            let memberId = try #require(try await harness.store.assignMember(purchaserOriginalTransactionId: original).originalTransactionId)
            await #expect(throws: SimulatorError.invalidState("every seat of the group is taken")) {
                try await harness.store.assignMember(purchaserOriginalTransactionId: original)
            }
            harness.store.clock.advance(by: 3600)
            let revoke = try await MultiSeat.verified(
                harness, try await harness.store.revokeMember(memberOriginalTransactionId: memberId))
            #expect(revoke.payload.notificationType == .revoke)
            #expect(revoke.payload.subtype == nil)
            #expect(revoke.payload.data?.status == .revoked)
            #expect(revoke.transaction?.revocationType == .assignmentRevoke)
            #expect(revoke.transaction?.revocationDate == harness.store.now)
            #expect(revoke.transaction?.revocationReason == nil)
            #expect(revoke.renewalInfo?.autoRenewStatus == .off)
            let statuses = try await harness.client.getAllSubscriptionStatuses(transactionId: memberId)
            #expect(statuses.data?.first?.lastTransactions?.first?.status == .revoked)
            #expect(await harness.store.status(originalTransactionId: original) == .active)
            // The seat is free again.
            _ = try await harness.store.assignMember(purchaserOriginalTransactionId: original)
            await #expect(throws: SimulatorError.self) {
                try await harness.store.revokeMember(memberOriginalTransactionId: memberId)
            }
            await #expect(throws: SimulatorError.self) {
                try await harness.store.revokeMember(memberOriginalTransactionId: original)
            }
        }
    }

    @Test func consumptionRequestAboutAMembersTransactionCarriesIt() async throws {
        try await withSimulator { harness in
            let original = try #require(try await MultiSeat.purchase(harness).originalTransactionId)
            let memberId = try #require(try await harness.store.assignMember(purchaserOriginalTransactionId: original).transactionId)
            let request = try await MultiSeat.verified(
                harness, try await harness.store.requestRefund(transactionId: memberId, reason: .unsatisfiedWithPurchase))
            #expect(request.payload.notificationType == .consumptionRequest)
            #expect(request.transaction?.transactionId == memberId)
            #expect(request.transaction?.inAppOwnershipType == .assigned)
        }
    }

    @Test func onlyAppleHostedGroupsHaveAssignedMembers() async throws {
        try await withSimulator { harness in
            let developer = try #require(try await MultiSeat.purchase(harness, invitationManagement: .developer).originalTransactionId)
            await #expect(throws: SimulatorError.self) {
                try await harness.store.assignMember(purchaserOriginalTransactionId: developer)
            }
            let single = try #require(try await harness.store.subscribe(
                SubscribeRequest(productId: "com.example.monthly")).originalTransactionId)
            await #expect(throws: SimulatorError.self) {
                try await harness.store.assignMember(purchaserOriginalTransactionId: single)
            }
        }
    }

    @Test func unclaimSeatsCarriesTheSeatIdsAndVerifies() async throws {
        try await withSimulator { harness in
            let original = try #require(try await MultiSeat.purchase(harness, invitationManagement: .developer).originalTransactionId)
            let seatIds = [UUID().uuidString.lowercased(), UUID().uuidString.lowercased()]
            let unclaimed = try await MultiSeat.verified(
                harness, try await harness.store.unclaimSeats(originalTransactionId: original, seatIds: seatIds))
            #expect(unclaimed.payload.notificationType == .unclaimSeats)
            #expect(unclaimed.payload.subtype == nil)
            #expect(unclaimed.payload.unclaimInfo?.unclaimSeatIds == seatIds)
            #expect(unclaimed.payload.data?.bundleId == "com.example.verdict")
            #expect(unclaimed.payload.data?.appAppleId == 1_234_567_890)
            #expect(unclaimed.payload.data?.environment == .sandbox)
            #expect(unclaimed.transaction == nil)

            let withSubscription = try await MultiSeat.verified(harness, try await harness.store.unclaimSeats(
                originalTransactionId: original, seatIds: [seatIds[0]], data: .subscription))
            #expect(withSubscription.transaction?.originalTransactionId == original)
            #expect(withSubscription.renewalInfo?.renewalQuantity == 8)

            let bare = try await harness.store.unclaimSeats(originalTransactionId: original, seatIds: seatIds, data: .none)
            #expect(bare.notification.payload.data == nil)
            #expect(bare.notification.payload.unclaimInfo?.unclaimSeatIds == seatIds)
            let jws = try #require(CompactJWS(bare.notification.signedPayload))
            #expect(try AppStoreJSON.decoder().decode(ResponseBodyV2DecodedPayload.self, from: jws.payload)
                .unclaimInfo?.unclaimSeatIds == seatIds)
        }
    }

    @Test func unclaimSeatsIsChecked() async throws {
        try await withSimulator { harness in
            let apple = try #require(try await MultiSeat.purchase(harness).originalTransactionId)
            await #expect(throws: SimulatorError.self) {
                try await harness.store.unclaimSeats(originalTransactionId: apple, seatIds: [UUID().uuidString])
            }
            let developer = try #require(try await MultiSeat.purchase(harness, seats: 1, invitationManagement: .developer).originalTransactionId)
            for seatIds in [[], ["not-a-uuid"], [UUID().uuidString, UUID().uuidString]] {
                await #expect(throws: SimulatorError.self) {
                    try await harness.store.unclaimSeats(originalTransactionId: developer, seatIds: seatIds)
                }
            }
        }
    }

    @Test func controlAPIAssignsRevokesAndUnclaims() async throws {
        try await withSimulator { harness in
            let apple = try #require(try await MultiSeat.purchase(harness).originalTransactionId)
            let assign = try await harness.raw("POST", "/simulator/scenarios/assign-member",
                                               body: Data(#"{"purchaserOriginalTransactionId":"\#(apple)"}"#.utf8), bearer: nil)
            #expect(assign.status == 200)
            let member = try AppStoreJSON.decoder().decode(ScenarioResult.self, from: assign.body)
            #expect(member.transaction?.inAppOwnershipType == .assigned)
            let memberId = try #require(member.originalTransactionId)
            let subscription = try ControlAPITests.json(try await harness.raw("GET", "/simulator/subscriptions/\(apple)", bearer: nil))
            #expect(subscription["memberOriginalTransactionIds"] as? [String] == [memberId])
            let revoke = try await harness.raw("POST", "/simulator/scenarios/revoke-member",
                                               body: Data(#"{"memberOriginalTransactionId":"\#(memberId)"}"#.utf8), bearer: nil)
            #expect(try AppStoreJSON.decoder().decode(ScenarioResult.self, from: revoke.body).transaction?.revocationType
                == .assignmentRevoke)

            let developer = try #require(try await MultiSeat.purchase(harness, invitationManagement: .developer).originalTransactionId)
            let seat = UUID().uuidString.lowercased()
            let unclaim = #"{"originalTransactionId":"\#(developer)","seatIds":["\#(seat)"],"data":"subscription"}"#
            let response = try await harness.raw("POST", "/simulator/scenarios/unclaim-seats", body: Data(unclaim.utf8), bearer: nil)
            let unclaimed = try AppStoreJSON.decoder().decode(ScenarioResult.self, from: response.body)
            #expect(unclaimed.notification.notificationType == .unclaimSeats)
            #expect(unclaimed.notification.payload.unclaimInfo?.unclaimSeatIds == [seat])
            #expect(unclaimed.transaction?.originalTransactionId == developer)
        }
    }
}

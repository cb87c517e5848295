import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing

/// Send Consumption Information (V1 and V2) and Set App Account Token refuse a group member's
/// `ASSIGNED` transaction with 400 / 4000227, as Apple does; the group purchaser's is accepted.
@Suite struct AssignedTransactionRefusalTests {
    static let v1Body = #"{"customerConsented":true,"consumptionStatus":1,"platform":1,"sampleContentProvided":false,"deliveryStatus":0,"appAccountToken":"","accountTenure":3,"playTime":2,"lifetimeDollarsRefunded":0,"lifetimeDollarsPurchased":2,"userStatus":1}"#

    /// A member's transaction id and the group purchaser's.
    static func group(_ harness: SimulatorHarness) async throws -> (member: String, purchaser: String) {
        let purchaser = try #require(try await MultiSeat.purchase(harness).transactionId)
        let member = try #require(try await harness.store.assignMember(purchaserOriginalTransactionId: purchaser).transactionId)
        return (member, purchaser)
    }

    static func errorCode(_ response: AppStoreHTTPResponse) throws -> Int64 {
        try AppStoreJSON.decoder().decode(ErrorPayload.self, from: response.body).errorCode
    }

    @Test func consumptionV2RefusesAnAssignedTransaction() async throws {
        try await withSimulator { harness in
            let (member, purchaser) = try await Self.group(harness)
            _ = try await harness.store.requestRefund(transactionId: member)
            let request = ConsumptionRequest(customerConsented: true, deliveryStatus: .delivered, sampleContentProvided: false)
            let failure = await apiFailure {
                try await harness.client.sendConsumptionInformation(transactionId: member, request: request)
            }
            #expect(failure?.httpStatus == 400)
            #expect(failure?.apiError == .invalidAssignedTransactionNotSupported)
            #expect(failure?.errorMessage?.isEmpty == false)
            let rejected = await harness.store.rejectedConsumptionInformation()
            #expect(rejected.map(\.transactionId) == [member])
            #expect(rejected.first?.errorCode == 4_000_227)
            #expect(await harness.store.receivedConsumptionInformation().isEmpty)

            try await harness.client.sendConsumptionInformation(transactionId: purchaser, request: request)
            #expect(await harness.store.receivedConsumptionInformation().map(\.transactionId) == [purchaser])
        }
    }

    @Test func consumptionV1RefusesAnAssignedTransaction() async throws {
        try await withSimulator { harness in
            let (member, purchaser) = try await Self.group(harness)
            let refused = try await harness.raw("PUT", "/inApps/v1/transactions/consumption/\(member)",
                                                body: Data(Self.v1Body.utf8), bearer: try harness.bearer())
            #expect(refused.status == 400)
            #expect(try Self.errorCode(refused) == 4_000_227)
            let accepted = try await harness.raw("PUT", "/inApps/v1/transactions/consumption/\(purchaser)",
                                                 body: Data(Self.v1Body.utf8), bearer: try harness.bearer())
            #expect(accepted.status == 202)
            #expect(await harness.store.receivedConsumptionInformationV1().map(\.transactionId) == [purchaser])
        }
    }

    @Test func setAppAccountTokenRefusesAnAssignedTransaction() async throws {
        try await withSimulator { harness in
            let (member, purchaser) = try await Self.group(harness)
            let body = Data(#"{"appAccountToken":"\#(UUID().uuidString)"}"#.utf8)
            let refused = try await harness.raw("PUT", "/inApps/v1/transactions/\(member)/appAccountToken",
                                                body: body, bearer: try harness.bearer())
            #expect(refused.status == 400)
            #expect(try Self.errorCode(refused) == 4_000_227)
            let accepted = try await harness.raw("PUT", "/inApps/v1/transactions/\(purchaser)/appAccountToken",
                                                 body: body, bearer: try harness.bearer())
            #expect(accepted.status == 200)
        }
    }
}

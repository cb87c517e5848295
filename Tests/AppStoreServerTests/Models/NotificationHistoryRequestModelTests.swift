import AppStoreServer
import Foundation
import Testing

@Suite("Notification history request model")
struct NotificationHistoryRequestModelTests {
    @Test func encodesDatesAsMillisecondsWithTypeFilter() throws {
        let request = NotificationHistoryRequest(
            startDate: ModelFixture.date(1_698_148_900_000),
            endDate: ModelFixture.date(1_698_148_950_000),
            notificationType: .subscribed,
            notificationSubtype: .initialBuy,
            onlyFailures: true
        )
        #expect(try ModelFixture.encode(request)
            == #"{"endDate":1698148950000,"notificationSubtype":"INITIAL_BUY","notificationType":"SUBSCRIBED","onlyFailures":true,"startDate":1698148900000}"#)
    }

    @Test func encodesTransactionFilterAndOmitsAbsentFields() throws {
        let request = NotificationHistoryRequest(
            startDate: ModelFixture.date(1_698_148_900_000),
            endDate: ModelFixture.date(1_698_148_950_000),
            transactionId: "999733843"
        )
        #expect(try ModelFixture.encode(request) == #"{"endDate":1698148950000,"startDate":1698148900000,"transactionId":"999733843"}"#)
    }

    @Test func decodesWhatItEncodes() throws {
        let request = NotificationHistoryRequest(
            startDate: ModelFixture.date(1_698_148_900_000), endDate: ModelFixture.date(1_698_148_950_000),
            notificationType: .didRenew, notificationSubtype: .billingRecovery, onlyFailures: false
        )
        #expect(try ModelFixture.decode(NotificationHistoryRequest.self, json: ModelFixture.encode(request)) == request)
    }
}

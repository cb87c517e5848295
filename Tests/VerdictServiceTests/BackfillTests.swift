import AppStoreServer
import AppStoreSimulator
import Foundation
import Testing
import VerdictService
import VerdictStorage
import VerdictTestSupport

/// Recovery after an outage: Apple (the simulator) could not deliver some notifications; the
/// `verdict appstore backfill` command pages Get Notification History, stores exactly the missing
/// ones, and a second run stores nothing.
@Suite(.serialized) struct BackfillTests {
    @Test(arguments: TestBackend.selected)
    func backfillAfterAnOutageStoresTheMissedNotificationsOnce(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend) { harness in
            let delivered = try await harness.store.subscribe(SubscribeRequest(productId: "com.example.monthly"))
            await harness.simulator.deliverer.waitUntilIdle()
            #expect(await harness.store.notification(uuid: delivered.notification.notificationUUID)?.wasDelivered == true)

            // The outage: Apple's attempts reach a port where nothing listens (held for the whole
            // test, so no service of a parallel test can take it).
            let (refusing, closedPort) = try ServiceProcess.refusingPort()
            defer { close(refusing) }
            await harness.simulator.deliverer.setDeliveryURL(URL(string: "http://127.0.0.1:\(closedPort)/v1/notifications"))
            var missed: [String] = []
            for _ in 0..<3 {
                let result = try await harness.store.subscribe(SubscribeRequest(productId: "com.example.monthly"))
                missed.append(result.notification.notificationUUID)
            }
            await harness.simulator.deliverer.waitUntilIdle()
            for uuid in missed {
                let simulated = await harness.store.notification(uuid: uuid)
                #expect(simulated?.wasDelivered == false)
                #expect(simulated?.sendAttempts.isEmpty == false)
                #expect(try await harness.request(.GET, "/v1/notifications/\(uuid)").status == 404)
            }

            let since = DateFormatter.day(harness.store.clock.now.addingTimeInterval(-86_400))
            let first = try await ServiceProcess.run(
                ["appstore", "backfill", "--since", since, "--only-failures"],
                settings: harness.environment, directory: harness.database.directory, name: "backfill-1")
            #expect(first.status == 0, "\(first.output)")
            #expect(first.output.contains("notifications 3: 3 new, 0 already stored, 0 rejected"), "\(first.output)")

            for uuid in [delivered.notification.notificationUUID] + missed {
                let record = try await harness.waitUntilProcessed(uuid, timeout: .seconds(30))
                #expect(record["state"]?.stringValue == "processed")
                #expect(record["processedCount"]?.integerValue == 1)
            }
            let backfilled = try await harness.request(.GET, "/v1/notifications/\(missed[0])")
            #expect(backfilled.body.jsonObject["source"]?.stringValue == "backfill")

            // A second, wider run finds everything already stored.
            let second = try await ServiceProcess.run(
                ["appstore", "backfill", "--since", since],
                settings: harness.environment, directory: harness.database.directory, name: "backfill-2")
            #expect(second.status == 0, "\(second.output)")
            #expect(second.output.contains("notifications 4: 0 new, 4 already stored, 0 rejected"), "\(second.output)")
            #expect(try await harness.service.apps.first.repository.notificationCount() == 4)
        }
    }

    @Test func backfillWithoutTheInAppPurchaseKeyExplainsWhy() async throws {
        try await ServiceHarness.with(.sqlite, credentials: false) { harness in
            let result = try await ServiceProcess.run(
                ["appstore", "backfill", "--since", "2026-01-01"],
                settings: harness.environment, directory: harness.database.directory, name: "backfill-nokey")
            #expect(result.status != 0)
            #expect(result.output.contains("In-App Purchase key"), "\(result.output)")
        }
    }
}

extension DateFormatter {
    /// `YYYY-MM-DD` in UTC.
    static func day(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }
}

import AppStoreServer
import AppStoreSimulator
import Foundation
import NIOHTTP1
import Testing
import VerdictService
import VerdictTestSupport

/// Caps hold exactly when decisions race: with `perOffer: {max: 10}`, 100 decisions made at once —
/// by two `verdict serve` processes on one PostgreSQL, or by one process on SQLite — grant the
/// offer exactly 10 times.
@Suite(.serialized) struct OfferCapRaceTests {
    static let offer = "lumen-annual-40off"
    static let customers = 100

    /// The shipped rules with the offer capped at `max` grants in 30 days, in a folder of their own.
    static func cappedRules(in directory: URL, max: Int = 10) throws -> String {
        let rules = directory.appendingPathComponent("Rules")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: ServiceHarness.rulesDirectory), to: rules)
        let file = rules.appendingPathComponent("retention.rules.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        let capped = text.replacingOccurrences(of: "\(offer): {max: 1000, within: 30d}", with: "\(offer): {max: \(max), within: 30d}")
        #expect(capped != text, "the shipped rules cap \(offer)")
        try capped.write(to: file, atomically: true, encoding: .utf8)
        return rules.path
    }

    /// `count` full-price annual subscribers, signed by the simulator (not yet delivered).
    static func subscribers(_ harness: ServiceHarness, _ count: Int) async throws -> [(otid: String, signedPayload: String, uuid: String)] {
        var result: [(String, String, String)] = []
        for _ in 0..<count {
            let bought = try await harness.store.subscribe(SubscribeRequest(
                productId: "com.lumen.pro.annual", price: 59_990, currency: "USD", period: .oneYear))
            result.append((try #require(bought.originalTransactionId), bought.notification.signedPayload, bought.notification.notificationUUID))
        }
        return result
    }

    /// Sends `/v1/offers/decide` for every subscription at once through `send`; returns how many
    /// answers made the capped offer.
    static func race(_ otids: [String], _ send: @escaping @Sendable (Int, Data) async throws -> (status: Int, body: Data)) async throws -> Int {
        let answers = await withTaskGroup(of: String.self, returning: [String].self) { group in
            for (index, otid) in otids.enumerated() {
                group.addTask {
                    let body = Data(#"{"originalTransactionId":"\#(otid)","trigger":"IN_APP"}"#.utf8)
                    do {
                        let (status, answer) = try await send(index, body)
                        guard status == 200 else { return "HTTP \(status): \(String(decoding: answer, as: UTF8.self))" }
                        return answer.jsonObject[path: "offer.offerId"]?.stringValue ?? "none"
                    } catch {
                        return "\(error)"
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let failed = answers.filter { $0.hasPrefix("HTTP ") || $0.contains("Error") }
        #expect(failed.isEmpty, "\(failed.prefix(3))")
        return answers.filter { $0 == Self.offer }.count
    }

    @Test(.enabled(if: TestBackend.selected.contains(.postgres)))
    func twoProcessesOnOnePostgreSQLGrantACappedOfferExactlyTenTimes() async throws {
        try await ServiceHarness.with(.postgres, startService: false) { harness in
            let directory = harness.database.directory
            var settings = harness.environment
            settings["VERDICT_RULES_DIR"] = try Self.cappedRules(in: directory)
            // 100 decisions queue for the database at once: the test is about caps, not timeouts.
            settings["VERDICT_DATABASE_TIMEOUT"] = "30"
            try await ServiceProcess.group { children in
                let a = try await children.start(settings, directory: directory, name: "caps-a")
                let b = try await children.start(settings, directory: directory, name: "caps-b")
                let subscribers = try await Self.subscribers(harness, Self.customers)
                for subscriber in subscribers { #expect(try await a.deliver(subscriber.signedPayload).status == 200) }
                _ = try await a.waitUntilSettled(subscribers.map(\.uuid), timeout: .seconds(60))
                let granted = try await Self.race(subscribers.map(\.otid)) { index, body in
                    try await (index % 2 == 0 ? a : b).request(.POST, "/v1/offers/decide", body: body)
                }
                #expect(granted == 10)
                #expect(try await harness.service.apps.first.repository.grantedOffers(.offer(Self.offer), since: 0) == 10)
                try await a.terminate()
                try await b.terminate()
            }
        }
    }

    @Test func oneProcessOnSQLiteGrantsACappedOfferExactlyTenTimes() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-caps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let rules = try Self.cappedRules(in: directory)
        try await ServiceHarness.with(.sqlite, extraSettings: ["VERDICT_RULES_DIR": rules, "VERDICT_DATABASE_TIMEOUT": "30"]) { harness in
            await harness.simulator.deliverer.setDeliveryURL(nil)
            let subscribers = try await Self.subscribers(harness, Self.customers)
            for subscriber in subscribers {
                #expect(try await harness.deliver(subscriber.signedPayload).status == 200)
                _ = try await harness.waitUntilProcessed(subscriber.uuid)
            }
            let granted = try await Self.race(subscribers.map(\.otid)) { _, body in
                try await harness.request(.POST, "/v1/offers/decide", body: body)
            }
            #expect(granted == 10)
            #expect(try await harness.service.apps.first.repository.grantedOffers(.offer(Self.offer), since: 0) == 10)
        }
    }
}

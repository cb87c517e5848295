import AppStoreServer
import AppStoreSimulator
import Foundation
import NIOHTTP1
import Testing
import VerdictService

/// The rules in the running service: `GET /v1/rules`, hot reload of a changed folder, refusal of
/// a bad bundle (the previous one keeps serving; the refusal is reported once), and SIGHUP.
@Suite struct RulesReloadTests {
    /// A private copy of the shipped `Rules/` folder.
    static func copyOfRules(in directory: URL) throws -> URL {
        let copy = directory.appendingPathComponent("rules-copy")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: ServiceHarness.rulesDirectory), to: copy)
        return copy
    }

    static func append(_ text: String, to file: URL) throws {
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(text.utf8))
        try handle.close()
    }

    /// Polls `fetch` until `condition` holds for its JSON object (20 s at most).
    static func poll(
        _ fetch: () async throws -> (status: Int, body: Data), until condition: ([String: JSONValue]) -> Bool
    ) async throws -> [String: JSONValue] {
        let deadline = ContinuousClock.now + .seconds(20)
        while true {
            let (status, body) = try await fetch()
            let object = body.jsonObject
            if status == 200, condition(object) { return object }
            guard ContinuousClock.now < deadline else { throw ServiceTestError("condition not reached; last: \(object)") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    @Test func rulesEndpointDescribesTheActiveBundle() async throws {
        try await ServiceHarness.with(.sqlite) { harness in
            let (status, body) = try await harness.request(.GET, "/v1/rules")
            #expect(status == 200)
            let object = body.jsonObject
            #expect(object["hash"]?.stringValue?.hasPrefix("sha256:") == true)
            #expect((object["loadedAt"]?.integerValue ?? 0) > 0)
            let rules = object["rules"]?.arrayValue ?? []
            #expect(!rules.isEmpty)
            for rule in rules {
                #expect(rule.objectValue?["id"]?.stringValue?.isEmpty == false)
                #expect(rule.objectValue?["file"]?.stringValue?.hasSuffix(".yaml") == true)
                #expect((rule.objectValue?["line"]?.integerValue ?? 0) > 0)
            }
            let offers = (object["offers"]?.arrayValue ?? []).compactMap { $0.objectValue?["id"]?.stringValue }
            #expect(offers.contains("lumen-annual-40off"))
            #expect(object["lastRejected"] == nil)
        }
    }

    @Test func aChangedFolderIsReloadedAndABadOneRefusedOnce() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let rules = try Self.copyOfRules(in: scratch)
        let settings = ["VERDICT_RULES_DIR": rules.path, "VERDICT_RULES_RELOAD_INTERVAL": "1"]
        try await ServiceHarness.with(.sqlite, extraSettings: settings) { harness in
            let fetch = { try await harness.request(.GET, "/v1/rules") }
            let initial = try await fetch().body.jsonObject
            let firstHash = try #require(initial["hash"]?.stringValue)

            // A valid edit is picked up without a restart.
            try Self.append("\n# edited by a product manager\n", to: rules.appendingPathComponent("catalog.yaml"))
            let reloaded = try await Self.poll(fetch) { $0["hash"]?.stringValue != firstHash }
            let secondHash = try #require(reloaded["hash"]?.stringValue)
            #expect((reloaded["loadedAt"]?.integerValue ?? 0) >= (initial["loadedAt"]?.integerValue ?? 0))

            // Renaming an offer the rules use breaks the bundle: refused with positioned errors.
            let catalog = rules.appendingPathComponent("catalog.yaml")
            let text = try String(contentsOf: catalog, encoding: .utf8)
            try text.replacingOccurrences(of: "id: lumen-annual-40off", with: "id: lumen-annual-45off")
                .write(to: catalog, atomically: true, encoding: .utf8)
            let refused = try await Self.poll(fetch) { $0["lastRejected"] != nil }
            #expect(refused["hash"]?.stringValue == secondHash)
            let rejection = try #require(refused["lastRejected"]?.objectValue)
            let errors = rejection["errors"]?.arrayValue ?? []
            #expect(!errors.isEmpty)
            let first = errors.first?.objectValue
            #expect(first?["file"]?.stringValue?.hasSuffix(".yaml") == true)
            #expect((first?["line"]?.integerValue ?? 0) > 0)
            #expect(rejection["text"]?.stringValue?.contains("lumen-annual-40off") == true)

            // The previous bundle keeps serving: its catalog still has the offer.
            let signed = try await harness.request(.POST, "/v1/offers/signatures", body: Data(
                #"{"productId":"com.lumen.pro.annual","offerId":"lumen-annual-40off","format":"jws"}"#.utf8))
            #expect(signed.status == 200)
            #expect(try await harness.request(.GET, "/readyz", token: nil).status == 200)
            let (_, otid) = try await harness.subscribeFullPriceAnnual()
            let decided = try await harness.request(.POST, "/v1/offers/decide", body: Data(
                #"{"originalTransactionId":"\#(otid)","trigger":"AUTO_RENEW_DISABLED"}"#.utf8))
            #expect(decided.body.jsonObject["offer"]?.objectValue?["offerId"]?.stringValue == "lumen-annual-40off")
            let id = decided.body.jsonObject["decisionId"]?.stringValue ?? ""
            #expect(try await harness.request(.GET, "/v1/decisions/\(id)").body.jsonObject["bundleHash"]?.stringValue == secondHash)

            // The refusal is logged and counted once, not at every poll.
            try await Task.sleep(for: .milliseconds(2_500))
            let metrics = String(decoding: try await harness.request(.GET, "/metrics").body, as: UTF8.self)
            #expect(metrics.contains("verdict_rules_reload_failures_total 1\n"))
        }
    }

    @Test func theOffersSectionsAppliesToChoosesWhichNotificationsAreDecided() async throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-rules-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let rules = try Self.copyOfRules(in: scratch)
        let file = rules.appendingPathComponent("retention.rules.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        let shipped = "appliesTo: event.type in [DID_CHANGE_RENEWAL_STATUS, EXPIRED]"
        try #require(text.contains(shipped))
        try text.replacingOccurrences(of: shipped, with: "appliesTo: event.type in [DID_CHANGE_RENEWAL_STATUS, EXPIRED, DID_RENEW]")
            .write(to: file, atomically: true, encoding: .utf8)
        try await ServiceHarness.with(.sqlite, extraSettings: ["VERDICT_RULES_DIR": rules.path]) { harness in
            let bought = try await harness.store.subscribe(SubscribeRequest(productId: "com.lumen.pro.monthly", price: 7_990))
            let otid = try #require(bought.originalTransactionId)
            let renewed = try await harness.store.renew(originalTransactionId: otid)
            _ = try await harness.waitUntilProcessed(renewed.notification.notificationUUID)
            let body = try await harness.request(.GET, "/v1/decisions?originalTransactionId=\(otid)").body.jsonObject
            let triggers = (body["decisions"]?.arrayValue ?? []).compactMap { $0.objectValue?["trigger"]?.stringValue }
            #expect(triggers == ["DID_RENEW"]) // SUBSCRIBED is still not decided
        }
    }

    @Test func sighupReloadsTheRulesOfVerdictServe() async throws {
        try await ServiceHarness.with(.sqlite, startService: false) { harness in
            try await ServiceProcess.group { children in
                let rules = try Self.copyOfRules(in: harness.database.directory)
                var settings = harness.environment
                settings["VERDICT_RULES_DIR"] = rules.path
                settings["VERDICT_RULES_RELOAD_INTERVAL"] = "0"
                let child = try await children.start(settings, directory: harness.database.directory, name: "sighup")
                let fetch = { try await child.request(.GET, "/v1/rules") }
                let firstHash = try #require(try await fetch().body.jsonObject["hash"]?.stringValue)

                try Self.append("\n# edited\n", to: rules.appendingPathComponent("catalog.yaml"))
                // Polling is off: nothing changes until the signal.
                try await Task.sleep(for: .milliseconds(1_500))
                #expect(try await fetch().body.jsonObject["hash"]?.stringValue == firstHash)
                child.hangUp()
                let reloaded = try await Self.poll(fetch) { $0["hash"]?.stringValue != firstHash }
                #expect(reloaded["hash"]?.stringValue?.hasPrefix("sha256:") == true)
                #expect(try await child.terminate() == 0)
            }
        }
    }
}

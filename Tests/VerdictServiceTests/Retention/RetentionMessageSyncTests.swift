import AppStoreServer
import AppStoreSimulator
import Foundation
import RuleEngine
import Testing
import VerdictService
import VerdictStorage

/// `verdict appstore messages sync|status` against the simulator: the bundle's texts uploaded,
/// review states recorded where the realtime path reads them, default messages set once
/// approved, changed texts replaced, and the realtime path answering once Apple approved.
@Suite struct RetentionMessageSyncTests {
    static let settings = ["VERDICT_RETENTION_DEADLINE": "5000"]

    static func sync(_ harness: ServiceHarness, _ messages: RetentionMessages, upload: Bool = true) async throws -> RetentionMessageSync.Report {
        let client = try harness.service.appStore.client(for: .sandbox)
        return try await RetentionMessageSync(client: client, repository: harness.service.repository, messages: messages).run(upload: upload)
    }

    @Test(arguments: ServiceBackend.selected)
    func syncUploadsRecordsStatesSetsDefaultsAndTheRealtimePathAnswers(_ backend: ServiceBackend) async throws {
        try await ServiceHarness.with(backend, extraSettings: Self.settings) { harness in
            let messages = RetentionRealtimeTests.bundle.messages
            let texts = messages.messages.flatMap(\.locales)
            // Production review takes time: first everything waits.
            await harness.store.setMessageReviewDelay(3600)
            let first = try await Self.sync(harness, messages)
            #expect(first.messages.count == texts.count)
            #expect(first.messages.allSatisfy { $0.action == "uploaded" && $0.state == "PENDING" })
            #expect(first.defaults.map(\.action) == ["waiting", "waiting"])
            let pending = try await harness.service.repository.retentionMessageStates()
            #expect(Set(pending.map(\.messageIdentifier)) == Set(texts.map { $0.identifier.uuidString.lowercased() }))
            #expect(pending.allSatisfy { $0.state == "PENDING" })

            // Apple approves; a second sync uploads nothing and sets the defaults.
            harness.store.clock.advance(by: 3600)
            let second = try await Self.sync(harness, messages)
            #expect(second.messages.allSatisfy { $0.action == "unchanged" && $0.state == "APPROVED" })
            #expect(second.defaults.map(\.action) == ["set", "set"])
            let client = try harness.service.appStore.client(for: .sandbox)
            let annualDefault = try await client.getDefaultMessage(productId: "com.lumen.pro.annual", locale: "en-US")
            #expect(annualDefault.messageIdentifier == messages.message("what-you-lose")?.locales.first?.identifier)

            // The realtime path reads the recorded states: the full-price subscriber gets the offer.
            let (_, otid) = try await harness.subscribeFullPriceAnnual()
            let (_, _, status, data) = try await RetentionRealtimeTests.ask(harness, otid: otid)
            #expect(status == 200)
            guard case .promotionalOffer = try AppStoreJSON.decoder().decode(RealtimeResponseBody.self, from: data) else {
                let (_, metrics) = try await harness.request(.GET, "/metrics")
                let causes = String(decoding: metrics, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix("verdict_retention_realtime_total") }
                Issue.record("expected the offer once Apple approved: \(String(decoding: data, as: UTF8.self)); \(causes)")
                return
            }
        }
    }

    @Test(arguments: ServiceBackend.selected)
    func aChangedTextIsANewMessageAndTheOldOneIsDeleted(_ backend: ServiceBackend) async throws {
        try await ServiceHarness.with(backend, extraSettings: Self.settings) { harness in
            func messages(_ body: String) throws -> RetentionMessages {
                let files = [
                    BundleSourceFile(path: "Rules/a.rules.yaml", text: "schema: 1\nretention:\n  rules:\n    - {id: r, answer: {message: m}}\n"),
                    BundleSourceFile(path: "Rules/catalog.yaml", text: "offers: []\n"),
                    BundleSourceFile(path: "Rules/messages.yaml", text: "messages:\n  - {id: m, locales: {en-US: {header: Stay, body: \"\(body)\"}}}\n"),
                ]
                return try RuleBundle.load(files: files).messages
            }
            let old = try messages("Half off your next year.")
            let new = try messages("Forty percent off your next year.")
            _ = try await Self.sync(harness, old)
            let report = try await Self.sync(harness, new)
            let oldId = try #require(old.messages.first?.locales.first?.identifier)
            let newId = try #require(new.messages.first?.locales.first?.identifier)
            #expect(report.messages.contains { $0.messageIdentifier == oldId && $0.action == "deleted" })
            #expect(report.messages.contains { $0.messageIdentifier == newId && $0.action == "uploaded" })
            let client = try harness.service.appStore.client(for: .sandbox)
            #expect(try await client.getMessageList().messageIdentifiers?.compactMap(\.messageIdentifier) == [newId])
            #expect(try await harness.service.repository.retentionMessageStates().map(\.messageIdentifier) == [newId.uuidString.lowercased()])

            // Status reads and records states, changing nothing at Apple.
            try await harness.store.setMessageState(newId, .rejected)
            let status = try await Self.sync(harness, new, upload: false)
            #expect(status.messages.map(\.state) == ["REJECTED"])
            #expect(try await harness.service.repository.retentionMessageStates().map(\.state) == ["REJECTED"])
        }
    }
}

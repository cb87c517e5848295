import AppStoreServer
import AppStoreSimulator
import Crypto
import Foundation
import RuleEngine
import Testing
import VerdictService
import VerdictStorage
import VerdictTestSupport

/// `verdict appstore messages sync|status` against the simulator: the bundle's images and texts
/// uploaded, review states recorded where the realtime path reads them, default messages set once
/// approved (with their images), changed texts and images replaced, and the realtime path
/// answering once Apple approved.
@Suite struct RetentionMessageSyncTests {
    static let settings = ["VERDICT_RETENTION_DEADLINE": "5000"]

    static func sync(_ harness: ServiceHarness, _ messages: RetentionMessages, upload: Bool = true,
                     directory: String = ServiceHarness.rulesDirectory) async throws -> RetentionMessageSync.Report {
        let client = try harness.service.apps.first.appStore.client(for: .sandbox)
        return try await RetentionMessageSync(
            client: client, repository: harness.service.apps.first.repository, messages: messages, imagesDirectory: directory
        ).run(upload: upload)
    }

    @Test(arguments: TestBackend.selected)
    func syncUploadsRecordsStatesSetsDefaultsAndTheRealtimePathAnswers(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend, extraSettings: Self.settings) { harness in
            let messages = RetentionRealtimeTests.bundle.messages
            let texts = messages.messages.flatMap(\.locales)
            // Production review takes time: first everything waits.
            await harness.store.setMessageReviewDelay(3600)
            let first = try await Self.sync(harness, messages)
            #expect(first.messages.count == texts.count + messages.images.count)
            #expect(first.messages.allSatisfy { $0.action == "uploaded" && $0.state == "PENDING" })
            #expect(first.defaults.map(\.action) == ["waiting", "waiting"])
            let pending = try await harness.service.apps.first.repository.retentionMessageStates()
            #expect(Set(pending.map(\.messageIdentifier))
                    == Set((texts.map(\.identifier) + messages.images.map(\.identifier)).map { $0.uuidString.lowercased() }))
            #expect(pending.allSatisfy { $0.state == "PENDING" })
            #expect(pending.filter { $0.kind == .image }.map(\.messageId).sorted() == messages.images.map(\.id).sorted())
            // The images went up before the message that shows them, with their sizes.
            let client = try harness.service.apps.first.appStore.client(for: .sandbox)
            #expect(Set(try await client.getImageList().imageIdentifiers?.compactMap(\.imageIdentifier) ?? [])
                    == Set(messages.images.map(\.identifier)))

            // Apple approves the texts but not yet the images: the default showing them waits.
            for text in texts { try await harness.store.setMessageState(text.identifier, .approved) }
            let textsOnly = try await Self.sync(harness, messages)
            #expect(textsOnly.defaults.map(\.action) == ["waiting", "waiting"])

            // Apple approves; a second sync uploads nothing and sets the defaults.
            harness.store.clock.advance(by: 3600)
            let second = try await Self.sync(harness, messages)
            #expect(second.messages.allSatisfy { $0.action == "unchanged" && $0.state == "APPROVED" })
            #expect(second.defaults.map(\.action) == ["set", "set"])
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

    @Test(arguments: TestBackend.selected)
    func aChangedTextIsANewMessageAndTheOldOneIsDeleted(_ backend: TestBackend) async throws {
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
            let client = try harness.service.apps.first.appStore.client(for: .sandbox)
            #expect(try await client.getMessageList().messageIdentifiers?.compactMap(\.messageIdentifier) == [newId])
            #expect(try await harness.service.apps.first.repository.retentionMessageStates().map(\.messageIdentifier) == [newId.uuidString.lowercased()])

            // Status reads and records states, changing nothing at Apple.
            try await harness.store.setMessageState(newId, .rejected)
            let status = try await Self.sync(harness, new, upload: false)
            #expect(status.messages.map(\.state) == ["REJECTED"])
            #expect(try await harness.service.apps.first.repository.retentionMessageStates().map(\.state) == ["REJECTED"])
        }
    }

    @Test(arguments: TestBackend.selected)
    func aChangedImageIsANewImageAndItsMessageANewMessage(_ backend: TestBackend) async throws {
        try await ServiceHarness.with(backend, extraSettings: Self.settings) { harness in
            let folder = harness.database.directory.appendingPathComponent("bundle-images", isDirectory: true)
            try FileManager.default.createDirectory(at: folder.appendingPathComponent("images"), withIntermediateDirectories: true)
            let shipped = URL(fileURLWithPath: ServiceHarness.rulesDirectory).appendingPathComponent("images")
            func bundle(icon: String) throws -> RetentionMessages {
                let png = try Data(contentsOf: shipped.appendingPathComponent(icon))
                try png.write(to: folder.appendingPathComponent("images/icon.png"))
                let digest = SHA256.hash(data: png).map { String(format: "%02x", $0) }.joined()
                try Data("""
                    schema: 1
                    retention:
                      rules:
                        - {id: r, answer: {message: m}}
                    """.utf8).write(to: folder.appendingPathComponent("a.rules.yaml"))
                try Data("offers: []\n".utf8).write(to: folder.appendingPathComponent("catalog.yaml"))
                try Data("""
                    images:
                      - {id: icon, file: images/icon.png, size: BULLET_POINT, sha256: \(digest)}
                    messages:
                      - id: m
                        locales:
                          en-US:
                            header: Stay
                            body: Keep it all.
                            bulletPoints: [{text: Filters, image: {id: icon, altText: A dot}}]
                    """.utf8).write(to: folder.appendingPathComponent("messages.yaml"))
                return try RuleBundle.load(directory: folder.path).messages
            }
            let old = try bundle(icon: "icon-filters.png")
            _ = try await Self.sync(harness, old, directory: folder.path)
            let new = try bundle(icon: "icon-cloud.png")
            let report = try await Self.sync(harness, new, directory: folder.path)
            let (oldImage, newImage) = (old.images[0].identifier, new.images[0].identifier)
            #expect(oldImage != newImage)
            #expect(report.messages.contains { $0.messageIdentifier == oldImage && $0.action == "deleted" })
            #expect(report.messages.contains { $0.messageIdentifier == newImage && $0.action == "uploaded" })
            let oldText = try #require(old.messages.first?.locales.first?.identifier)
            #expect(report.messages.contains { $0.messageIdentifier == oldText && $0.action == "deleted" }, "the message showing it changed too")
            let client = try harness.service.apps.first.appStore.client(for: .sandbox)
            #expect(try await client.getImageList().imageIdentifiers?.compactMap(\.imageIdentifier) == [newImage])

            // A file that no longer matches its recorded sha256 is refused before it is sent.
            let newText = try #require(new.messages.first?.locales.first?.identifier)
            try await client.deleteMessage(messageIdentifier: newText)
            try await client.deleteImage(imageIdentifier: newImage)
            try Data(contentsOf: shipped.appendingPathComponent("icon-retouch.png")).write(to: folder.appendingPathComponent("images/icon.png"))
            let refused = await #expect(throws: RetentionImageFiles.Problem.self) {
                _ = try await Self.sync(harness, new, directory: folder.path)
            }
            #expect(refused?.reason.contains("messages.yaml records \(new.images[0].sha256)") == true)
            #expect(try await client.getImageList().imageIdentifiers?.isEmpty ?? true)
        }
    }
}

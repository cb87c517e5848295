import AppStoreServer
import Crypto
import Foundation
import Testing
import VerdictService
import VerdictStorage
import VerdictTestSupport

/// A single-app deployment upgrades in place: a database written by the release before apps
/// (0257c8f, schema 18), opened by this one with the same single-app settings, answers every
/// lookup it answered then — the same status and every member of the same body (new members
/// aside) — and its rows now belong to the configured app and to no other.
@Suite struct ReleaseUpgradeTests {
    static let settings = [
        "VERDICT_BUNDLE_ID": "com.lumen.app",
        "VERDICT_ENVIRONMENTS": "Sandbox",
        "VERDICT_RULES_DIR": ServiceHarness.rulesDirectory,
        "VERDICT_API_TOKENS": ServiceHarness.token,
        "VERDICT_RECONCILE_INTERVAL": "0",
        "VERDICT_LOG_LEVEL": "critical",
    ]

    @Test(arguments: TestBackend.selected)
    func theSingleAppReleasesDatabaseAnswersEveryLookupAsBefore(_ backend: TestBackend) async throws {
        let release = try ReleaseDatabase.load("release-0257c8f")
        #expect(release.answers.count > 100)
        let database = try await TestDatabase.make(backend)
        do {
            try await release.write(to: database.url)
            var settings = Self.settings
            settings["VERDICT_DATABASE_URL"] = database.url
            // An In-App Purchase key under the demo's key id: offers are answered signed, as then.
            let keyFile = database.directory.appendingPathComponent("key.p8")
            try Data(P256.Signing.PrivateKey().pemRepresentation.utf8).write(to: keyFile)
            settings["VERDICT_APPSTORE_KEY_ID"] = "2I26TBKVAT"
            settings["VERDICT_APPSTORE_ISSUER_ID"] = "00000000-0000-4000-8000-000000000000"
            settings["VERDICT_APPSTORE_PRIVATE_KEY_FILE"] = keyFile.path
            settings["VERDICT_APPSTORE_API_URL"] = "http://127.0.0.1:9"
            let configuration = try ServiceConfiguration(reader: try await ConfigurationSources.reader(environment: settings))
            let instant = Date(appStoreMilliseconds: release.capturedAt)
            let service = try await VerdictServer.open(configuration: configuration, logger: TestDatabase.logger, now: { instant })
            let running = try await RunningApplication.start { onServerRunning in
                try service.makeApplication(port: 0, onServerRunning: onServerRunning)
            }
            for answer in release.answers {
                let (status, body) = try await HTTP.send(.GET, "http://127.0.0.1:\(running.port)" + answer.path, token: ServiceHarness.token)
                #expect(status == answer.status, "\(answer.path)")
                let now = JSONValue.parse(body) ?? .string(String(decoding: body, as: UTF8.self))
                let differences = Self.differences(answer.body, now, at: answer.path)
                #expect(differences.isEmpty, "\(differences.prefix(5).joined(separator: "\n"))")
            }
            // The rows are the configured app's: another app's repository finds none of them.
            let other = service.apps.first.repository.scoped(to: "com.example.other")
            let uuids = release.tables["notifications"]?.rows.compactMap { $0.first?.stringValue } ?? []
            #expect(!uuids.isEmpty)
            for uuid in uuids.prefix(5) {
                #expect(try await service.apps.first.repository.notification(uuid: uuid) != nil)
                #expect(try await other.notification(uuid: uuid) == nil)
            }
            try await running.stop("the upgraded service")
        } catch {
            await database.remove()
            throw error
        }
        await database.remove()
    }

    /// Members made anew on every answer (an offer is signed with a fresh nonce, at the moment it
    /// is asked for): compared by presence only.
    static let freshlyMade: Set<String> = ["nonce", "timestamp", "signature", "jws"]

    /// Where `now` differs from `before`: a member of an object `before` has that `now` lacks or
    /// holds differently (members only `now` has are new, and allowed), an array of another length
    /// or with a differing element, or another value.
    static func differences(_ before: JSONValue, _ now: JSONValue, at path: String) -> [String] {
        switch (before, now) {
        case (.object(let old), .object(let new)):
            return old.keys.sorted().flatMap { key -> [String] in
                guard let value = new[key] else { return ["\(path).\(key): missing"] }
                return freshlyMade.contains(key) ? [] : differences(old[key]!, value, at: path + "." + key)
            }
        case (.array(let old), .array(let new)):
            guard old.count == new.count else { return ["\(path): \(old.count) items, now \(new.count)"] }
            return zip(old, new).enumerated().flatMap { differences($0.element.0, $0.element.1, at: "\(path)[\($0.offset)]") }
        default:
            return before == now ? [] : ["\(path): \(before) → \(now)"]
        }
    }
}

import Foundation
import RuleEngine
import Testing

/// The bundle shipped in `Rules/` (the service's default) must check clean, pass all its tests
/// with every rule and veto covered, and decide its example facts documents.
@Suite("The shipped Rules/ bundle")
struct ShippedBundleTests {
    /// `<package root>/Rules`, found from this file's path (Tests/RuleEngineTests/…).
    static let rulesDirectory: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Rules").path

    private func load() throws -> RuleBundle {
        do {
            return try RuleBundle.load(directory: Self.rulesDirectory)
        } catch {
            Issue.record("Rules/ does not check clean:\n\(error.description)")
            throw error
        }
    }

    @Test("checks clean: no errors and no warnings")
    func checksClean() throws {
        let bundle = try load()
        #expect(bundle.warnings.isEmpty, "\(bundle.warnings.map { $0.render() }.joined(separator: "\n\n"))")
        #expect(bundle.offers != nil)
        #expect(bundle.refunds != nil)
        #expect(bundle.catalog.currencies == ["USD", "EUR", "GBP", "JPY"])
    }

    @Test("every test passes and every rule and veto is hit by a test")
    func testsPassWithFullCoverage() throws {
        let bundle = try load()
        let report = RuleTestRunner.run(bundle: bundle, requireCoverage: true)
        #expect(report.failedCount == 0, "\(report.render())")
        #expect(report.uncovered.isEmpty, "not covered: \(report.uncovered.map(\.id))")
        #expect(report.passedCount >= bundle.ruleReferences.count)
        #expect(report.succeeded)
    }

    @Test("the bundle store activates it, as the service will at start-up")
    func storeActivates() throws {
        let store = BundleStore(requireCoverage: true)
        guard case .activated(let bundle) = store.reload(directory: Self.rulesDirectory) else {
            Issue.record("not activated: \(store.lastRejection?.render() ?? "?")")
            return
        }
        #expect(store.current?.hash == bundle.hash)
    }

    @Test("the example facts documents decide as documented")
    func examples() throws {
        let bundle = try load()
        let examples = URL(fileURLWithPath: Self.rulesDirectory).appendingPathComponent("examples")
        let autoRenew = try Facts(json: Data(contentsOf: examples.appendingPathComponent("auto-renew-disabled.json")), schema: bundle.schema)
        let offer = bundle.decide(autoRenew)
        #expect(offer.section == .offers)
        #expect(offer.offer?.id == "lumen-monthly-3for1")
        #expect(offer.rule?.id == "monthly-loyal-full-price")
        #expect(offer.shadowMatches.map(\.rule.id) == ["monthly-power-user-free-month"])
        #expect(offer.errors.isEmpty)

        let request = try Facts(json: Data(contentsOf: examples.appendingPathComponent("consumption-request.json")), schema: bundle.schema)
        let refund = bundle.decide(request)
        #expect(refund.section == .refunds)
        #expect(refund.rule?.id == "credits-partly-used")
        #expect(refund.refund?.refundPreference == "GRANT_PRORATED")
        #expect(refund.refund?.consumptionPercentage == 35_000)
        #expect(refund.errors.isEmpty)
    }

    @Test("each bundle file starts with a modeline pointing editors at its JSON Schema")
    func modelines() throws {
        let expected = [
            "catalog.yaml": "schema/catalog.schema.json",
            "messages.yaml": "schema/messages.schema.json",
            "retention.rules.yaml": "schema/rules.schema.json",
            "retention.tests.yaml": "schema/tests.schema.json",
        ]
        for (name, schema) in expected {
            let text = try String(contentsOfFile: Self.rulesDirectory + "/" + name, encoding: .utf8)
            let firstLine = text.split(separator: "\n", maxSplits: 1).first.map(String.init)
            #expect(firstLine == "# yaml-language-server: $schema=\(schema)", "\(name)")
            #expect(FileManager.default.fileExists(atPath: Self.rulesDirectory + "/" + schema), "\(schema)")
        }
    }
}

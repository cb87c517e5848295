import Foundation
import RuleEngine
import Testing

@Suite("Testing: bundle store (hot reload)")
struct BundleStoreTests {
    private func files(offer: String, expected: String) -> [BundleSourceFile] {
        BundleTestSupport.files(rules: BundleTestSupport.offersFile("""
                - id: r1
                  when: [event.subtype == AUTO_RENEW_DISABLED]
                  offer: {id: \(offer), type: PROMOTIONAL}
            """), tests: """
            tests:
              - name: t
                given: {event: {type: DID_CHANGE_RENEWAL_STATUS, subtype: AUTO_RENEW_DISABLED}, subscription: {productId: com.example.pro.annual}}
                expect: {offer: \(expected)}
            """)
    }

    @Test("a bundle that checks and passes its tests is activated; the same files again change nothing")
    func activates() throws {
        let store = BundleStore()
        #expect(store.current == nil)
        guard case .activated(let bundle) = store.reload(files: files(offer: "promo-annual-50", expected: "promo-annual-50")) else {
            Issue.record("expected activation")
            return
        }
        #expect(store.current === bundle)
        guard case .unchanged = store.reload(files: files(offer: "promo-annual-50", expected: "promo-annual-50")) else {
            Issue.record("expected unchanged")
            return
        }
    }

    @Test("a bundle with failing tests is refused and the last good one stays; decisions in flight keep theirs")
    func rejectsFailingTests() throws {
        let store = BundleStore()
        store.reload(files: files(offer: "promo-annual-50", expected: "promo-annual-50"))
        let inFlight = try #require(store.current)
        guard case .rejected(let rejection) = store.reload(files: files(offer: "promo-monthly-30", expected: "promo-annual-50")) else {
            Issue.record("expected rejection")
            return
        }
        #expect(rejection.testReport?.summaryLine == "0 passed, 1 failed")
        #expect(store.current === inFlight)
        #expect(store.lastRejection?.hash == rejection.hash)
        let facts = try BundleTestSupport.facts(BundleTestSupport.autoRenewOff)
        #expect(inFlight.decide(facts).offer?.id == "promo-annual-50")
    }

    @Test("a bundle with check errors is refused with its positioned errors")
    func rejectsCheckErrors() {
        let store = BundleStore()
        guard case .rejected(let rejection) = store.reload(files: files(offer: "promo-anual-50", expected: "none")) else {
            Issue.record("expected rejection")
            return
        }
        #expect(rejection.testReport == nil)
        #expect(rejection.render().contains("Rules/test.rules.yaml:9:19: error: unknown offer 'promo-anual-50'"))
        #expect(store.current == nil)
    }

    @Test("a new passing bundle replaces the current one")
    func swaps() throws {
        let store = BundleStore()
        store.reload(files: files(offer: "promo-annual-50", expected: "promo-annual-50"))
        let first = try #require(store.current)
        store.reload(files: files(offer: "promo-monthly-30", expected: "promo-monthly-30"))
        let second = try #require(store.current)
        #expect(first !== second)
        #expect(first.hash != second.hash)
    }

    @Test("a bundle folder on disk loads: bundle files only, printed with the folder path")
    func loadsDirectory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-bundle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for file in files(offer: "promo-annual-50", expected: "promo-annual-50") {
            try file.text.write(to: directory.appendingPathComponent(file.name), atomically: true, encoding: .utf8)
        }
        try "not part of the bundle".write(to: directory.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
        let bundle = try RuleBundle.load(directory: directory.path)
        #expect(bundle.files.map(\.name) == ["catalog.yaml", "test.rules.yaml", "test.tests.yaml"])
        #expect(bundle.files.first?.path == directory.path + "/catalog.yaml")
        #expect(bundle.hash == BundleHash.compute(files(offer: "promo-annual-50", expected: "promo-annual-50")))
    }
}

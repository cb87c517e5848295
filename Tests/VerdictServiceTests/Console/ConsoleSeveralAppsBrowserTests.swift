import AppStoreServer
import Foundation
import Testing
import VerdictService
import VerdictStorage

/// The console of two apps in headless Chromium over a real socket: a viewer of both apps lands on
/// All apps, opens app B from it, follows B's links (Decisions, a decision, its customer, its rule)
/// without ever losing B, switches to app A with the header's switcher and filters A's decisions
/// and Overview (their forms keep A); no page logs a console error. App A's history is played by
/// the simulator; app B's decision is stored in its repository.
@Suite("Console of several apps in headless Chromium", .serialized, .enabled(if: BrowserTestEnvironment.isEnabled, BrowserTestEnvironment.skipReason))
struct ConsoleSeveralAppsBrowserTests {
    static let viewer = "viewer-of-both-apps-0123456789"
    static let a = ServiceHarness.bundleId
    static let b = "com.example.b"

    /// The config file of the two apps: the harness's token acts for A (its helpers act for A),
    /// the viewer's for both.
    static func configuration(in directory: URL) throws -> String {
        let file = directory.appendingPathComponent("verdict-two-apps.json")
        let apps: [[String: Any]] = [
            ["bundleId": a, "appAppleId": 1_234_567_890, "rules": ["dir": ServiceHarness.rulesDirectory]],
            ["bundleId": b, "appAppleId": 1_234_567_891, "rules": ["dir": ServiceHarness.rulesDirectory]],
        ]
        let tokens: [[String: Any]] = [
            ["token": ServiceHarness.token, "role": "operator", "apps": [a]],
            ["token": viewer, "role": "viewer", "apps": [a, b]],
        ]
        try JSONSerialization.data(withJSONObject: ["apps": apps, "apiTokens": tokens]).write(to: file)
        return file.path
    }

    @Test func aViewerOfTwoAppsSwitchesAppsAndFollowsLinksWithoutLosingTheApp() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-console-apps-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let settings = [
            "VERDICT_CONFIG_FILE": try Self.configuration(in: directory),
            // The harness's single-app settings are unset (an empty value counts as unset).
            "VERDICT_BUNDLE_ID": "", "VERDICT_APP_APPLE_ID": "", "VERDICT_API_TOKENS": "", "VERDICT_RULES_DIR": "",
        ]
        try await ServiceHarness.with(.sqlite, extraSettings: settings) { harness in
            _ = try await OfferHistoryTests.play(.jpyMonthlyLoyal, harness)
            let decisionB = try await Self.seedB(harness)
            try await HeadlessChromium.withSession { browser in
                func open(_ path: String) async throws {
                    try await browser.navigate(to: URL(string: harness.baseURL + path)!)
                }
                func page() async throws -> [String: JSONValue] {
                    try await browser.execute("""
                        return {path: location.pathname, search: location.search, title: document.title,
                                h1: document.querySelector('h1')?.textContent ?? '', text: document.body.innerText,
                                switcher: document.getElementById('app-switcher')?.value ?? null,
                                options: Array.from(document.querySelectorAll('#app-switcher option')).map(o => o.value),
                                links: Array.from(document.querySelectorAll('a')).map(a => a.getAttribute('href'))};
                        """).objectValue ?? [:]
                }
                /// The open page's URL names `app`, the switcher shows it, and every link but the
                /// All apps page, the style sheet and sign-out keeps it.
                func expectApp(_ app: String, _ name: String) async throws -> [String: JSONValue] {
                    let current = try await page()
                    #expect(current["search"]?.stringValue?.contains("app=\(app)") == true, "\(name): \(current["search"] ?? .null)")
                    #expect(current["switcher"]?.stringValue == app, "\(name)")
                    #expect(current["options"] == .array([.string(Self.a), .string(Self.b)]), "\(name): the session's apps")
                    for link in current["links"]?.arrayValue?.compactMap(\.stringValue) ?? []
                    where link.hasPrefix("/console/") && link != "/console/apps" {
                        #expect(link.contains("app=\(app)"), "\(name) links to \(link)")
                    }
                    let problems = try await browser.consoleLog().filter { $0.isSevere || $0.isFailedLoad }
                    #expect(problems.isEmpty, "\(name): \(problems)")
                    try BrowserTestEnvironment.saveScreenshot(try await browser.screenshot(), name: "console-apps-\(name).png", publish: false)
                    return current
                }
                /// Clicks the first element `selector` finds and waits for the next page, whose URL has `search`.
                func click(_ selector: String, to search: String) async throws {
                    try await Self.leave(browser, by: "document.querySelector(arguments[0]).click();", [.string(selector)], to: search)
                }

                try await open("/console/sign-in")
                _ = try await browser.execute("""
                    document.getElementById('token').value = arguments[0];
                    document.querySelector('form.sign-in').submit();
                    return true;
                    """, [.string(Self.viewer)])
                try await ConsoleBrowserTests.waitFor(browser, path: "/console/apps")
                let all = try await page()
                #expect(all["h1"]?.stringValue == "All apps")
                #expect(all["text"]?.stringValue?.contains(Self.a) == true && all["text"]?.stringValue?.contains(Self.b) == true)
                try BrowserTestEnvironment.saveScreenshot(try await browser.screenshot(), name: "console-all-apps.png", publish: true)

                // From All apps to B's Overview, then B's Decisions, its decision, customer and rule.
                try await click("table.apps a[href$='app=\(Self.b)']", to: "app=\(Self.b)")
                let overview = try await expectApp(Self.b, "overview-b")
                #expect(overview["h1"]?.stringValue == "Overview" && overview["title"]?.stringValue?.contains(Self.b) == true)
                try await click("header a[href^='/console/decisions?']", to: "app=\(Self.b)")
                let decisions = try await expectApp(Self.b, "decisions-b")
                let listed = decisions["links"]?.arrayValue?.compactMap(\.stringValue).filter { $0.hasPrefix("/console/decisions/offers/") } ?? []
                #expect(listed == ["/console/decisions/offers/\(decisionB)?app=\(Self.b)"], "only B's decision: \(listed)")
                try await click("main tbody a[href^='/console/decisions/offers/']", to: "app=\(Self.b)")
                #expect(try await expectApp(Self.b, "decision-b")["h1"]?.stringValue == "Offer decision")
                try await click("main dd a[href^='/console/customer?']", to: "app=\(Self.b)")
                #expect(try await expectApp(Self.b, "customer-b")["h1"]?.stringValue == "Customer")
                try await open("/console/decisions/offers/\(decisionB)?app=\(Self.b)")
                try await click("main dd a[href^='/console/rules?']", to: "app=\(Self.b)")
                let rule = try await browser.execute("return document.querySelector(':target')?.id ?? ''")
                #expect(rule.stringValue == "rule-annual-full-price-payer", "the rule's row on B's Rules page")
                _ = try await expectApp(Self.b, "rules-b")

                // Switch to A on B's Decisions page: A's Decisions, without B's decision.
                try await open("/console/decisions?app=\(Self.b)")
                try await Self.leave(browser, by: """
                    document.getElementById('app-switcher').value = arguments[0];
                    document.querySelector('form.app-switcher').submit();
                    """, [.string(Self.a)], to: "app=\(Self.a)")
                let decisionsA = try await expectApp(Self.a, "decisions-a")
                #expect(decisionsA["path"]?.stringValue == "/console/decisions")
                let listedA = decisionsA["links"]?.arrayValue?.compactMap(\.stringValue).filter { $0.hasPrefix("/console/decisions/offers/") } ?? []
                #expect(!listedA.isEmpty && !listedA.contains { $0.contains(decisionB) }, "A's decisions only: \(listedA)")

                // Forms keep the app: the decisions filter, the Overview's period and its presets.
                try await Self.leave(browser, by: """
                    document.getElementById('rule').value = 'monthly-loyal-full-price';
                    document.querySelector('main form.filters').submit();
                    """, to: "rule=monthly-loyal-full-price")
                _ = try await expectApp(Self.a, "decisions-a-filtered")
                try await click("header a[href^='/console/overview?']", to: "app=\(Self.a)")
                try await click(".presets a", to: "days=7")
                let week = try await expectApp(Self.a, "overview-a-week")
                #expect(week["text"]?.stringValue?.contains("monthly-loyal-full-price") == true, "A's rule decided")
                try BrowserTestEnvironment.saveScreenshot(try await browser.screenshot(), name: "console-app-switcher.png", publish: true)

                // The header's All apps link leads back.
                try await click("header a[href='/console/apps']", to: "")
                #expect(try await page()["path"]?.stringValue == "/console/apps")
            }
        }
    }

    /// An offer decision of app B by a rule of its bundle, and its customer; returns its id.
    static func seedB(_ harness: ServiceHarness) async throws -> String {
        let repository = try #require(harness.service.apps.app(bundleId: b)).repository
        let otid = "7000000000000001"
        try await repository.importCustomers([CustomerRecord(
            originalTransactionId: otid, appAccountToken: UUID().uuidString.lowercased(), appTransactionId: nil,
            environment: "Sandbox", firstSeenAt: Date().appStoreMilliseconds - 86_400_000, historyRevision: nil, historySyncedAt: nil)])
        let id = UUID().uuidString.lowercased()
        _ = try await repository.insertOfferDecision(OfferDecisionRecord(
            id: id, originalTransactionId: otid, notificationUUID: nil, trigger: "AUTO_RENEW_DISABLED", bundleHash: "sha256:b",
            ruleId: "annual-full-price-payer", ruleLine: 86, offerId: "lumen-annual-40off", offerType: "PROMOTIONAL",
            productId: "com.lumen.pro.annual", heldOut: false, decidedAt: Date().appStoreMilliseconds - 3_600_000, expiresAt: nil,
            json: #"{"explanation":"result: offer lumen-annual-40off","facts":{}}"#), followUp: nil, caps: [])
        return id
    }

    /// Runs `script` (a click, a form sent), which leaves the page, and waits until the next page
    /// is loaded and its query string contains `search`.
    static func leave(_ browser: BrowserSession, by script: String, _ arguments: [JSONValue] = [], to search: String) async throws {
        _ = try await browser.execute("window.verdictLeaving = true; " + script + " return true;", arguments)
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let loaded = try await browser.execute(
                "return document.readyState === 'complete' && !window.verdictLeaving ? location.search : null")
            if let current = loaded.stringValue, search.isEmpty || current.contains(search) { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ServiceTestError("the browser did not reach a page with \(search)")
    }
}

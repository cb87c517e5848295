import AppStoreServer
import Foundation
import Testing
import VerdictService

/// The console in headless Chromium over a real socket, on a history the simulator played: sign
/// in with a viewer token, open each page, follow a decision and a refund request (their facts
/// tables, and their links to the customer's timeline and to the rule's row), sign out; no
/// console error on any page (the strict CSP included), and a viewer's token cannot reach an
/// operator endpoint.
/// Screenshots of each page are written (and published to `VERDICT_SCREENSHOT_DIR` for the docs).
@Suite("Console in headless Chromium", .serialized, .enabled(if: BrowserTestEnvironment.isEnabled, BrowserTestEnvironment.skipReason))
struct ConsoleBrowserTests {
    static let viewer = "viewer-token-0123456789"

    @Test func aViewerSignsInReadsEveryPageFollowsADecisionAndSignsOut() async throws {
        try await ServiceHarness.with(.sqlite, extraSettings: ["VERDICT_API_TOKENS": "viewer:\(Self.viewer),\(ServiceHarness.token)"]) { harness in
            _ = try await ReplayEndpointTests.seed(harness)
            // A refund request a rule answered (the seed's falls to the default answer).
            let token = UUID()
            let purchase = try await harness.buy("com.lumen.credits.100", token: token)
            try await harness.consent(token)
            _ = try await harness.askRefund(purchase, .legal)
            try await HeadlessChromium.withSession { browser in
                func open(_ path: String) async throws {
                    try await browser.navigate(to: URL(string: harness.baseURL + path)!)
                }
                func page() async throws -> [String: JSONValue] {
                    try await browser.execute("""
                        return {path: location.pathname, title: document.title, h1: document.querySelector('h1')?.textContent ?? '',
                                text: document.body.innerText, links: Array.from(document.querySelectorAll('main a')).map(a => a.getAttribute('href'))};
                        """).objectValue ?? [:]
                }
                func expectClean(_ name: String, answered status: Int? = nil, publish: Bool = true) async throws {
                    // The page's own status, when it is an expected error answer, is logged as a failed load.
                    let expected = status.map { "status of \($0)" }
                    let problems = try await browser.consoleLog().filter {
                        ($0.isSevere || $0.isFailedLoad) && !(expected.map($0.message.contains) ?? false)
                    }
                    #expect(problems.isEmpty, "\(name): \(problems)")
                    try BrowserTestEnvironment.saveScreenshot(try await browser.screenshot(), name: "console-\(name).png", publish: publish)
                }
                // A decision's page (at `path`, already open and read as `decision`) links its
                // subscription (and its appAccountToken, where known) to the customer's timeline,
                // which links back to the decision, and its rule to the rule's row on the Rules page.
                func followLinks(of decision: [String: JSONValue], at path: String, _ name: String) async throws {
                    let links = decision["links"]?.arrayValue?.compactMap(\.stringValue) ?? []
                    let customers = links.filter { $0.hasPrefix("/console/customer?q=") }
                    #expect(!customers.isEmpty, "\(name): the subscription links to the customer")
                    for (index, customer) in customers.enumerated() {
                        try await open(customer)
                        let timeline = try await page()
                        #expect(timeline["h1"]?.stringValue == "Customer", "\(name): \(customer)")
                        #expect(timeline["links"]?.arrayValue?.contains(.string(path)) == true, "\(name): \(customer) leads back to \(path)")
                        try await expectClean("\(name)-customer-\(index)", publish: false)
                    }
                    let rule = try #require(links.first { $0.hasPrefix("/console/rules#rule-") }, "\(name): the rule links to the Rules page")
                    try await open(rule)
                    let target = try await browser.execute("""
                        const id = location.hash.slice(1);
                        const row = document.getElementById(id);
                        return {path: location.pathname, found: row !== null, targeted: row !== null && document.querySelector(':target') === row,
                                names: row !== null && row.textContent.includes('id: ' + decodeURIComponent(id.slice('rule-'.length)))};
                        """).objectValue ?? [:]
                    #expect(target["path"]?.stringValue == "/console/rules")
                    #expect(target["found"] == .bool(true) && target["targeted"] == .bool(true), "\(name): \(rule) names a row")
                    #expect(target["names"] == .bool(true), "\(name): the row is the rule's id: line")
                    try await expectClean("\(name)-rule", publish: false)
                }
                /// Reads the facts table of the open decision page.
                func factsTable() async throws -> [String: JSONValue] {
                    try await browser.execute("""
                        const table = document.querySelector('table.facts');
                        const rows = table ? Array.from(table.tBodies[0].rows).filter(r => r.parentElement === table.tBodies[0]) : [];
                        return {rows: rows.map(r => [r.cells[0].textContent, r.cells[1].textContent]),
                                times: table ? table.querySelectorAll('time').length : 0,
                                lists: table ? table.querySelectorAll('table.list').length : 0,
                                raw: document.querySelector('details.raw pre')?.textContent ?? ''};
                        """).objectValue ?? [:]
                }
                func value(_ facts: [String: JSONValue], _ path: String) -> String? {
                    facts["rows"]?.arrayValue?.first { $0.arrayValue?.first?.stringValue == path }?.arrayValue?.last?.stringValue
                }

                try await open("/console/rules")
                #expect(try await page()["path"]?.stringValue == "/console/sign-in", "an anonymous visitor is sent to sign in")
                try await expectClean("sign-in")
                _ = try await browser.execute("""
                    document.getElementById('token').value = arguments[0];
                    document.querySelector('form.sign-in').submit();
                    return true;
                    """, [.string(Self.viewer)])
                try await Self.waitFor(browser, path: "/console/overview")
                let overview = try await page()
                #expect(overview["text"]?.stringValue?.contains("treatment against holdout") == true)
                #expect(overview["text"]?.stringValue?.contains("monthly-loyal-full-price") == true, "a rule that decided is listed")
                try await expectClean("overview")

                try await open("/console/rules")
                let rules = try await page()
                #expect(rules["text"]?.stringValue?.contains("annual-full-price-payer") == true)
                #expect(rules["text"]?.stringValue?.contains("decisions ·") == true, "live counts beside the rules")
                try await expectClean("rules")

                try await open("/console/decisions")
                let decisions = try await page()
                // The newest decision a rule made (a vetoed one has none).
                let ruled = try await browser.execute("""
                    return Array.from(document.querySelectorAll('main tbody tr'))
                      .filter(row => row.cells[3].textContent !== '—').map(row => row.querySelector('a').getAttribute('href'));
                    """)
                let first = try #require(ruled.arrayValue?.compactMap(\.stringValue).first { $0.hasPrefix("/console/decisions/offers/") })
                try await expectClean("decisions")
                try await open(first)
                let decision = try await page()
                #expect(decision["h1"]?.stringValue == "Offer decision")
                #expect(decision["text"]?.stringValue?.contains("result:") == true, "the explanation is shown")
                #expect(decision["text"]?.stringValue?.lowercased().contains("signature") == false)
                let facts = try await factsTable()
                #expect(value(facts, "subscription.price")?.wholeMatch(of: /\d+\.\d{2,3} [A-Z]{3}/) != nil, "money: \(facts)")
                #expect(value(facts, "event.signedDate")?.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{3})?Z/) != nil,
                        "an instant: \(facts)")
                #expect(value(facts, "customer.transactions")?.contains("item") == true && (facts["lists"]?.integerValue ?? 0) > 0,
                        "the transactions, a row each")
                #expect(facts["raw"]?.stringValue?.contains("\"milliunits\"") == true, "the JSON as stored, behind a click")
                try await expectClean("decision")
                try await followLinks(of: decision, at: first, "decision")

                // From the decisions to the customer's timeline.
                let customer = try #require(decisions["links"]?.arrayValue?.compactMap(\.stringValue).first { $0.hasPrefix("/console/customer?q=") })
                try await open(customer)
                let timeline = try await page()
                #expect(timeline["h1"]?.stringValue == "Customer")
                for entry in ["DID_CHANGE_RENEWAL_STATUS", "purchase ", "decision on "] {
                    #expect(timeline["text"]?.stringValue?.contains(entry) == true, "the timeline shows \(entry)")
                }
                try await expectClean("customer")

                try await open("/console/refunds")
                #expect(try await page()["text"]?.stringValue?.contains("CONSUMPTION") == false)
                try await expectClean("refunds")

                // A refund request's page (one a rule answered): the same links and the purchase's facts.
                let answered = try await browser.execute("""
                    return Array.from(document.querySelectorAll('main tbody tr'))
                      .filter(row => row.cells[5].textContent !== 'default').map(row => row.querySelector('a').getAttribute('href'));
                    """)
                let request = try #require(answered.arrayValue?.compactMap(\.stringValue).first { $0.hasPrefix("/console/decisions/refunds/") })
                try await open(request)
                let refund = try await page()
                #expect(refund["h1"]?.stringValue == "Refund request")
                let purchase = try await factsTable()
                #expect(value(purchase, "purchase.price")?.wholeMatch(of: /\d+\.\d{2,3} [A-Z]{3}/) != nil, "money: \(purchase)")
                #expect(value(purchase, "purchase.purchaseDate")?.hasSuffix("Z") == true, "an instant: \(purchase)")
                #expect(refund["links"]?.arrayValue?.count { $0.stringValue?.hasPrefix("/console/customer?q=") == true } == 2,
                        "the subscription and its appAccountToken")
                try await expectClean("refund-request", publish: false)
                try await followLinks(of: refund, at: request, "refund-request")

                // A replay from the console: an edit that breaks one of the bundle's tests is refused
                // with the failing test; the active bundle as it is replays, and its report shows.
                try await open("/console/replay")
                _ = try await browser.execute("""
                    document.getElementById('file').value = 'retention.rules.yaml';
                    document.getElementById('text').value = arguments[0];
                    document.querySelector('form.replay-form').submit();
                    return true;
                    """, [.string(try Self.rulesWithoutTheRefunderVeto())])
                try await Self.waitFor(browser, path: "/console/replay")
                let refused = try await page()
                #expect(refused["text"]?.stringValue?.contains("The candidate was refused") == true)
                #expect(refused["text"]?.stringValue?.contains("candidate/retention.tests.yaml:") == true, "the failing test is positioned")
                try await expectClean("replay-refused", answered: 422)
                _ = try await browser.execute("document.querySelector('form.replay-form').submit(); return true;")
                let status = try await Self.waitForReplay(browser)
                try await expectClean("replay")
                try await open(status + "/report")
                let report = try await page()
                #expect(report["h1"]?.stringValue == "Replay report")
                #expect(report["text"]?.stringValue?.contains("Nothing that can change a decision") == true)
                let problems = try await browser.consoleLog().filter { $0.isSevere || $0.isFailedLoad }
                #expect(problems.isEmpty, "the report's own style sheet is allowed by its hash: \(problems)")

                // The page may not call anything (the CSP allows no connection), the session does not
                // open the API, and the viewer's token reads the API but not an operator's endpoint.
                let fetched = try? await browser.execute("return fetch('/v1/rules').then(r => r.status)")
                #expect(fetched == nil, "the console's CSP blocks fetch")
                _ = try await browser.consoleLog()
                try await open("/v1/jobs")
                #expect(try await page()["text"]?.stringValue?.contains("UNAUTHORIZED") == true)
                let asViewer = try await harness.request(.GET, "/v1/jobs", token: Self.viewer)
                #expect(asViewer.status == 403)
                #expect(try await harness.request(.GET, "/v1/rules", token: Self.viewer).status == 200)
                try await open("/console/refunds")

                _ = try await browser.execute("document.querySelector('form.sign-out').submit(); return true;")
                try await Self.waitFor(browser, path: "/console/sign-in")
                try await open("/console/rules")
                #expect(try await page()["path"]?.stringValue == "/console/sign-in", "signed out")
            }
        }
    }

    /// The shipped rules file without the veto against recent refunders (a test expects it).
    static func rulesWithoutTheRefunderVeto() throws -> String {
        let text = try #require(try ReplayCandidates.shipped()["retention.rules.yaml"])
        return text.replacingOccurrences(of: "    - id: no-offers-to-recent-refunders\n      if: segment.recentRefunder\n", with: "")
    }

    /// Waits on a replay's page (it reloads itself) until the replay is done; returns its path.
    static func waitForReplay(_ browser: BrowserSession) async throws -> String {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let state = try await browser.execute("""
                return document.readyState === 'complete' && location.pathname.startsWith('/console/replay/')
                  ? {path: location.pathname, done: document.querySelector('iframe.report') !== null} : {};
                """).objectValue ?? [:]
            if state["done"] == .bool(true), let path = state["path"]?.stringValue { return path }
            try await Task.sleep(for: .milliseconds(200))
        }
        throw ServiceTestError("the replay did not finish within 30 s")
    }

    /// Waits until the browser shows `path` (after a form was submitted).
    static func waitFor(_ browser: BrowserSession, path: String) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if try await browser.execute("return document.readyState === 'complete' ? location.pathname : ''").stringValue == path { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ServiceTestError("the browser did not reach \(path)")
    }
}

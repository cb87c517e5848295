import AppStoreServer
import Foundation
import Testing
import VerdictService

/// The console in headless Chromium over a real socket, on a history the simulator played: sign
/// in with a viewer token, open each page, follow a decision, sign out; no console error on any
/// page (the strict CSP included), and a viewer's token cannot reach an operator endpoint.
/// Screenshots of each page are written (and published to `VERDICT_SCREENSHOT_DIR` for the docs).
@Suite("Console in headless Chromium", .serialized, .enabled(if: BrowserTestEnvironment.isEnabled, BrowserTestEnvironment.skipReason))
struct ConsoleBrowserTests {
    static let viewer = "viewer-token-0123456789"

    @Test func aViewerSignsInReadsEveryPageFollowsADecisionAndSignsOut() async throws {
        try await ServiceHarness.with(.sqlite, extraSettings: ["VERDICT_API_TOKENS": "viewer:\(Self.viewer),\(ServiceHarness.token)"]) { harness in
            _ = try await ReplayEndpointTests.seed(harness)
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
                func expectClean(_ name: String, answered status: Int? = nil) async throws {
                    // The page's own status, when it is an expected error answer, is logged as a failed load.
                    let expected = status.map { "status of \($0)" }
                    let problems = try await browser.consoleLog().filter {
                        ($0.isSevere || $0.isFailedLoad) && !(expected.map($0.message.contains) ?? false)
                    }
                    #expect(problems.isEmpty, "\(name): \(problems)")
                    try BrowserTestEnvironment.saveScreenshot(try await browser.screenshot(), name: "console-\(name).png", publish: true)
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
                let first = try #require(decisions["links"]?.arrayValue?.compactMap(\.stringValue).first { $0.hasPrefix("/console/decisions/offers/") })
                try await expectClean("decisions")
                try await open(first)
                let decision = try await page()
                #expect(decision["h1"]?.stringValue == "Offer decision")
                #expect(decision["text"]?.stringValue?.contains("result:") == true, "the explanation is shown")
                #expect(decision["text"]?.stringValue?.lowercased().contains("signature") == false)
                try await expectClean("decision")

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
                #expect(report["text"]?.stringValue?.contains("No structural change") == true)
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

import Crypto
import Foundation
import HTTPTypes
import Testing
import VerdictService
import VerdictStorage
import VerdictTestSupport

/// The console of a service of two apps (``TwoAppRouterHarness``), in-process on each database: a
/// page shows one app, named by `?app=`; each app's decisions, customers and replays appear only
/// under it; a session sees only its token's apps (another's pages answer 404, as an unknown page
/// does); the switcher lists the session's apps; every link and form keeps the app; the All apps
/// page compares the apps' headline numbers.
@Suite("Console: several apps")
struct ConsoleSeveralAppsTests {
    typealias Harness = TwoAppRouterHarness
    static let a = Harness.a
    static let b = Harness.b

    /// An offer decision of app `bundleId` (decided yesterday, by a rule of the shipped bundle) and
    /// its customer.
    @discardableResult
    static func seed(_ harness: Harness, _ bundleId: String, index: Int) async throws -> OfferDecisionRecord {
        let repository = try harness.app(bundleId).repository
        let otid = "20000000000009\(String(format: "%02d", index))"
        try await repository.importCustomers([CustomerRecord(
            originalTransactionId: otid, appAccountToken: UUID().uuidString.lowercased(), appTransactionId: nil,
            environment: "Sandbox", firstSeenAt: 1_794_000_000_000, historyRevision: nil, historySyncedAt: nil)])
        let record = OfferDecisionRecord(
            id: "0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c30\(String(format: "%02d", index))", originalTransactionId: otid,
            notificationUUID: nil, trigger: "AUTO_RENEW_DISABLED", bundleHash: "sha256:abc", ruleId: "annual-full-price-payer",
            ruleLine: 86, offerId: "lumen-annual-40off", offerType: "PROMOTIONAL", productId: "com.lumen.pro.annual",
            heldOut: false, decidedAt: Date().appStoreMilliseconds - 86_400_000, expiresAt: nil,
            json: #"{"explanation":"result: offer lumen-annual-40off","facts":{}}"#)
        _ = try await repository.insertOfferDecision(record, followUp: nil, caps: [])
        return record
    }

    /// A signed-in session of `token`: its cookie, and where sign-in sent it.
    static func signIn(_ harness: Harness, _ token: String) async throws -> (cookie: HTTPFields, value: String, landing: String?) {
        let answer = try await ConsoleTests.signIn(harness.router, token: token)
        #expect(answer.status == 303)
        let session = try #require(ConsoleTests.cookie("verdict_session", in: answer)).value
        return ([.cookie: "verdict_session=\(session)"], session, answer.headers[.location])
    }

    static func get(_ harness: Harness, _ path: String, _ cookie: HTTPFields) async throws -> (status: Int, html: String, location: String?) {
        let answer = try await harness.router.send(.get, path, token: nil, headers: cookie)
        return (answer.status, String(decoding: answer.body, as: UTF8.self), answer.headers[.location])
    }

    /// Every link, frame source and POST form action of `html` to the console, HTML-unescaped (a
    /// GET form's action carries no query: its fields do, see ``getForms(in:)``).
    static func links(in html: String) -> [String] {
        let links = html.matches(of: /(?:href|src)="(\/console[^"]*)"/).map(\.output.1)
            + html.matches(of: /<form method="post" action="(\/console[^"]*)"/).map(\.output.1)
        return links.map { String($0).replacingOccurrences(of: "&amp;", with: "&") }
    }

    /// The GET forms of `html` but the app switcher, whole.
    static func getForms(in html: String) -> [String] {
        html.matches(of: /<form method="get"[^>]*>(?s:.*?)<\/form>/).map { String($0.output) }.filter { !$0.contains("app-switcher") }
    }

    /// Links that name no app by design: the style sheet, sign-out, and the All apps page.
    static func namesNoApp(_ link: String) -> Bool {
        ["/console/assets/", "/console/sign-out", "/console/apps"].contains { link.hasPrefix($0) }
    }

    @Test(arguments: TestBackend.selected)
    func eachAppsDecisionsAndCustomersAreShownOnlyUnderItsApp(_ backend: TestBackend) async throws {
        try await Harness.with(backend) { harness in
            let a1 = try await Self.seed(harness, Self.a, index: 1)
            let a2 = try await Self.seed(harness, Self.a, index: 2)
            let b1 = try await Self.seed(harness, Self.b, index: 3)
            let session = try await Self.signIn(harness, Harness.tokenAB)
            #expect(session.landing == "/console/apps", "a session of several apps lands on All apps")
            let cookie = session.cookie

            // All apps: each app's headline numbers, its name linking to its Overview.
            let all = try await Self.get(harness, "/console/apps", cookie)
            #expect(all.status == 200)
            for (app, decisions) in [(Self.a, 2), (Self.b, 1)] {
                #expect(all.html.contains(#"&amp;app=\#(app)"><code>\#(app)</code></a></th><td>0</td><td>\#(decisions)</td><td>\#(decisions)</td>"#),
                        "\(app): 0 notifications, \(decisions) decisions and offers")
            }
            #expect(Self.links(in: all.html).contains { $0.hasPrefix("/console/overview?since=") && $0.hasSuffix("&app=\(Self.b)") })

            // A page of a session of several apps names its app; without it, the session chooses.
            let unnamed = try await Self.get(harness, "/console/decisions", cookie)
            #expect(unnamed.status == 303 && unnamed.location == "/console/apps")
            let listA = try await Self.get(harness, "/console/decisions?app=\(Self.a)", cookie)
            let listB = try await Self.get(harness, "/console/decisions?app=\(Self.b)", cookie)
            for id in [a1.id, a2.id] {
                #expect(listA.html.contains("/console/decisions/offers/\(id)?app=\(Self.a)"))
                #expect(!listB.html.contains(id))
            }
            #expect(listB.html.contains("/console/decisions/offers/\(b1.id)?app=\(Self.b)") && !listA.html.contains(b1.id))

            // Another app's decision or customer answers as an absent one.
            let absent = try await Self.get(harness, "/console/decisions/offers/\(UUID().uuidString.lowercased())?app=\(Self.a)", cookie)
            let other = try await Self.get(harness, "/console/decisions/offers/\(b1.id)?app=\(Self.a)", cookie)
            #expect(absent.status == 404 && other.status == 404)
            #expect(other.html.contains("No decision is stored under this id.") && other.html == absent.html)
            #expect(try await Self.get(harness, "/console/decisions/offers/\(b1.id)?app=\(Self.b)", cookie).status == 200)
            let customer = try await Self.get(harness, "/console/customer?q=\(b1.originalTransactionId)&app=\(Self.a)", cookie)
            #expect(customer.status == 404 && customer.html.contains("No subscriber is stored under \(b1.originalTransactionId)."))
            let own = try await Self.get(harness, "/console/customer?q=\(b1.originalTransactionId)&app=\(Self.b)", cookie)
            #expect(own.status == 200 && own.html.contains("/console/decisions/offers/\(b1.id)?app=\(Self.b)"))
        }
    }

    @Test(arguments: TestBackend.selected)
    func aSessionOfOneAppSeesOnlyItsAppAndAnotherAppsPagesAnswer404(_ backend: TestBackend) async throws {
        try await Harness.with(backend) { harness in
            let a1 = try await Self.seed(harness, Self.a, index: 1)
            let b1 = try await Self.seed(harness, Self.b, index: 2)
            let session = try await Self.signIn(harness, Harness.tokenA)
            #expect(session.landing == "/console/overview")
            let cookie = session.cookie
            // The session keeps its token's apps.
            let digest = SHA256.hash(data: Data(session.value.utf8)).map { String(format: "%02x", $0) }.joined()
            let record = try await harness.app(Self.a).repository.consoleSession(idDigest: digest, now: Date().appStoreMilliseconds)
            #expect(record?.apps == [Self.a])

            let unknownPage = try await Self.get(harness, "/console/no-such-page", cookie)
            #expect(unknownPage.status == 404)
            for path in ["/console/overview", "/console/rules", "/console/decisions", "/console/customer", "/console/refunds", "/console/replay"] {
                // Today's URLs: no parameter needed, none in the links, no switcher, nothing of app B.
                let page = try await Self.get(harness, path, cookie)
                #expect(page.status == 200, "\(path)")
                #expect(!page.html.contains(Self.b) && !page.html.contains("app-switcher") && !page.html.contains("All apps"), "\(path)")
                #expect(Self.links(in: page.html).allSatisfy { !$0.contains("app=") }, "\(path)")
                #expect(try await Self.get(harness, "\(path)?app=\(Self.a)", cookie).status == 200, "\(path): its own app may be named")
                // Another app's page, or one not configured, answers as an unknown page does.
                for app in [Self.b, "com.example.unconfigured"] {
                    let refused = try await Self.get(harness, "\(path)?app=\(app)", cookie)
                    #expect(refused.status == 404 && refused.html == unknownPage.html, "\(path)?app=\(app)")
                }
            }
            #expect(try await Self.get(harness, "/console/decisions/offers/\(a1.id)", cookie).status == 200)
            let other = try await Self.get(harness, "/console/decisions/offers/\(b1.id)", cookie)
            #expect(other.status == 404 && other.html.contains("No decision is stored under this id."))
            let named = try await Self.get(harness, "/console/decisions/offers/\(b1.id)?app=\(Self.b)", cookie)
            #expect(named.status == 404 && named.html == unknownPage.html)
            let all = try await Self.get(harness, "/console/apps", cookie)
            #expect(all.status == 303 && all.location == "/console/overview", "All apps is for sessions of several apps")
        }
    }

    @Test(arguments: TestBackend.selected)
    func theSwitcherListsTheSessionsAppsAndEveryLinkAndFormKeepsTheApp(_ backend: TestBackend) async throws {
        try await Harness.with(backend) { harness in
            let b1 = try await Self.seed(harness, Self.b, index: 1)
            let cookie = try await Self.signIn(harness, Harness.tokenAB).cookie
            let decisions = try await Self.get(harness, "/console/decisions?app=\(Self.b)", cookie)
            #expect(decisions.html.contains(
                #"<form method="get" action="/console/decisions" class="app-switcher">"#))
            #expect(decisions.html.contains(
                #"<select id="app-switcher" name="app"><option value="\#(Self.a)">\#(Self.a)</option><option value="\#(Self.b)" selected>\#(Self.b)</option></select>"#))
            #expect(decisions.html.contains("<title>Decisions · \(Self.b) · Verdict console</title>"))

            // Every page reachable from B's Overview keeps B in every link and GET form.
            var queue = ["/console/overview?app=\(Self.b)"]
            var seen = Set(queue)
            var visited = 0
            while let path = queue.first, visited < 40 {
                queue.removeFirst()
                visited += 1
                let page = try await Self.get(harness, path, cookie)
                #expect(page.status == 200, "\(path)")
                for form in Self.getForms(in: page.html) {
                    #expect(form.contains(#"<input type="hidden" name="app" value="\#(Self.b)">"#), "\(path): \(form)")
                }
                for link in Self.links(in: page.html) where !Self.namesNoApp(link) {
                    #expect(link.contains("app=\(Self.b)"), "\(path) links to \(link)")
                    let target = String(link.prefix { $0 != "#" })
                    if seen.insert(target).inserted { queue.append(target) }
                }
            }
            #expect(seen.contains("/console/decisions/offers/\(b1.id)?app=\(Self.b)"), "the crawl reached the decision")
            #expect(seen.contains(where: { $0.hasPrefix("/console/customer?q=\(b1.originalTransactionId)&app=") }), "and its customer")

            // A replay asked for on B's page is B's, and found only under B.
            let form = try await Self.get(harness, "/console/replay?app=\(Self.b)", cookie)
            #expect(form.html.contains(#"action="/console/replay?app=\#(Self.b)""#))
            let csrf = try #require(ConsoleTests.csrf(in: Data(form.html.utf8)))
            let body = "--b0undary\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n\(csrf)\r\n--b0undary--\r\n"
            let launched = try await harness.router.send(
                .post, "/console/replay?app=\(Self.b)", body: Data(body.utf8), contentType: "multipart/form-data; boundary=b0undary",
                token: nil, headers: cookie)
            let location = try #require(launched.headers[.location])
            #expect(launched.status == 303 && location.hasSuffix("?app=\(Self.b)"))
            let id = String(location.dropFirst("/console/replay/".count).prefix { $0 != "?" })
            #expect(try await harness.app(Self.b).repository.replay(id: id) != nil)
            #expect(try await harness.app(Self.a).repository.replay(id: id) == nil)
            let status = try await Self.get(harness, location, cookie)
            #expect(status.status == 200)
            let underA = try await Self.get(harness, "/console/replay/\(id)?app=\(Self.a)", cookie)
            #expect(underA.status == 404 && underA.html.contains("No such replay"))
            let recent = try await Self.get(harness, "/console/replay?app=\(Self.a)", cookie)
            #expect(!recent.html.contains(id), "A's recent replays do not list B's")
        }
    }
}

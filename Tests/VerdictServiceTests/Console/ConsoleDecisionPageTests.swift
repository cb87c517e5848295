import Foundation
import HTTPTypes
import Testing
@testable import VerdictService
import VerdictStorage

/// A decision's page and a refund request's page in-process: the subscription and its
/// appAccountToken link to the customer's timeline, the rule to its row on the Rules page, the
/// facts are a table (money, instants, durations and enum values written as such, lists as rows)
/// with the JSON one click away, and every stored value is escaped in the page and encoded in the
/// links.
@Suite struct ConsoleDecisionPageTests {
    static let token = "5f0a1b2c-3d4e-4f5a-8b6c-7d8e9f0a1b2c"

    /// A decision's facts: every kind of value, and hostile strings.
    static let offerFacts = """
        {"event": {"type": "DID_CHANGE_RENEWAL_STATUS", "subtype": "AUTO_RENEW_DISABLED", "environment": "Sandbox", \
        "signedDate": 1795000000000},
        "subscription": {"originalTransactionId": "2000000000000101", "productId": "com.lumen.pro.annual<script>alert(1)</script>",
        "price": {"currency": "USD", "milliunits": 79900}, "renewalPrice": {"currency": "USD", "milliunits": 9995},
        "currency": "USD", "offerType": 2, "autoRenewStatus": 0, "isInBillingRetry": false, "tenure": 34560000000,
        "eligibleWinBackOfferIds": ["lumen-winback-a", "lumen-winback-b"], "recentSubscriptionStartDate": 1794000000000,
        "paidPeriods": 2},
        "customer": {"transactions": [
          {"productId": "com.lumen.pro.annual", "price": {"currency": "USD", "milliunits": 79900}, "currency": "USD",
           "purchaseDate": 1794500000000},
          {"productId": "com.lumen.pro.monthly", "price": {"currency": "USD", "milliunits": 7990}, "currency": "USD",
           "purchaseDate": 1794000000000, "revocationDate": 1794500000000, "revocationType": "REFUND_FULL"}],
        "refunds": [], "offersRedeemed": [], "decisions": [], "historyComplete": true,
        "lifetimePurchased": {"USD": {"currency": "USD", "milliunits": 87890}}, "lifetimeRefunded": {},
        "attributes": {"exportsLast30Days": 12, "<b>note</b>": "<script>alert(2)</script>", "since": 1794000000000}}}
        """

    static func html(_ answer: RouterHarness.Answer) -> String { String(decoding: answer.body, as: UTF8.self) }

    @Test func anOfferDecisionLinksItsCustomerAndRuleAndShowsItsFactsAsATable() async throws {
        try await RouterHarness.with(extraSettings: ["VERDICT_API_TOKENS": ConsoleTests.tokens]) { harness in
            let repository = harness.service.apps.first.repository
            try await repository.importCustomers([CustomerRecord(
                originalTransactionId: "2000000000000101", appAccountToken: Self.token, appTransactionId: nil, environment: "Sandbox",
                firstSeenAt: 1_794_000_000_000, historyRevision: nil, historySyncedAt: nil)])
            let record = OfferDecisionRecord(
                id: "0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3e01", originalTransactionId: "2000000000000101", notificationUUID: nil,
                trigger: "AUTO_RENEW_DISABLED", bundleHash: "sha256:abc", ruleId: "annual-full-price-payer", ruleLine: 86,
                offerId: "lumen-annual-40off", offerType: "PROMOTIONAL", productId: "com.lumen.pro.annual", heldOut: false,
                decidedAt: 1_795_000_000_000, expiresAt: 1_795_600_000_000,
                json: #"{"explanation":"result: offer lumen-annual-40off","facts":\#(Self.offerFacts)}"#)
            _ = try await repository.insertOfferDecision(record, followUp: nil, caps: [])
            let session = try #require(ConsoleTests.cookie("verdict_session", in: try await ConsoleTests.signIn(harness, token: ConsoleTests.viewer)))
            let cookie: HTTPFields = [.cookie: "verdict_session=\(session.value)"]
            let page = try await harness.send(.get, "/console/decisions/offers/\(record.id)", token: nil, headers: cookie)
            #expect(page.status == 200)
            #expect(page.headers[.contentSecurityPolicy] == ConsoleHeaders.contentSecurityPolicy, "the page needs no script")
            let html = Self.html(page)

            // The links.
            #expect(html.contains(#"<a href="/console/customer?q=2000000000000101"><code>2000000000000101</code></a>"#))
            #expect(html.contains(#"<a href="/console/customer?q=\#(Self.token)"><code>\#(Self.token)</code></a>"#),
                    "the stored customer's appAccountToken")
            #expect(html.contains(#"<a href="/console/rules#rule-annual-full-price-payer">annual-full-price-payer</a> <span class="muted">(line 86)</span>"#))

            // The facts, typed by the schema.
            func row(_ path: String, _ value: String) -> String { "<th scope=\"row\"><code>\(path)</code></th><td>\(value)" }
            #expect(html.contains(row("subscription.price", "79.90 USD</td>")))
            #expect(html.contains(row("subscription.renewalPrice", "9.995 USD</td>")), "milliunits are never rounded away")
            #expect(html.contains(row("event.signedDate", "<time>2026-11-18T11:06:40Z</time>")))
            #expect(html.contains(row("event.environment", #"SANDBOX <span class="muted">(Sandbox)</span>"#)))
            #expect(html.contains(row("subscription.offerType", #"PROMOTIONAL <span class="muted">(2)</span>"#)))
            #expect(html.contains(row("subscription.tenure", "400d</td>")))
            #expect(html.contains(row("subscription.isInBillingRetry", "false</td>")))
            #expect(html.contains(row("customer.lifetimePurchased[&#39;USD&#39;]", "87.89 USD</td>")))
            #expect(html.contains(row("customer.lifetimeRefunded", #"<span class="muted">none</span>"#)))
            #expect(html.contains(row("customer.refunds", #"<span class="muted">none (empty list)</span>"#)))
            #expect(html.contains(row("customer.attributes.exportsLast30Days", "12</td>")))
            #expect(html.contains(row("customer.attributes.since", "1794000000000</td>")),
                    "an integer the schema does not call a timestamp stays a number")
            // Records in declaration order, nested ones as dotted paths.
            let event = try #require(html.range(of: "<code>event.type</code>")?.lowerBound)
            let subscription = try #require(html.range(of: "<code>subscription.originalTransactionId</code>")?.lowerBound)
            let customer = try #require(html.range(of: "<code>customer.transactions</code>")?.lowerBound)
            #expect(event < subscription && subscription < customer)

            // A list of records: a row per item, a column per field in the schema's order.
            #expect(html.contains(#"<span class="muted">2 items</span>"#))
            #expect(html.contains("<th scope=\"col\">productId</th><th scope=\"col\">price</th><th scope=\"col\">currency</th>"
                + "<th scope=\"col\">purchaseDate</th><th scope=\"col\">revocationDate</th><th scope=\"col\">revocationType</th>"))
            #expect(html.contains("<tr><td>com.lumen.pro.monthly</td><td>7.99 USD</td><td>USD</td><td><time>2026-11-06T21:20:00Z</time></td>"
                + "<td><time>2026-11-12T16:13:20Z</time></td><td>REFUND_FULL</td></tr>"))
            #expect(html.contains(#"<td><span class="muted">—</span></td>"#), "a field an item does not have")
            #expect(html.contains("<tr><td>lumen-winback-a</td></tr>") && html.contains("<tr><td>lumen-winback-b</td></tr>"),
                    "a list of strings, a row each")

            // Stored text is escaped, and the JSON stays one click away.
            #expect(html.contains(row("subscription.productId", "com.lumen.pro.annual&lt;script&gt;alert(1)&lt;/script&gt;</td>")))
            #expect(html.contains(row("customer.attributes.&lt;b&gt;note&lt;/b&gt;", "&lt;script&gt;alert(2)&lt;/script&gt;</td>")))
            #expect(!html.contains("<script") && !html.contains("<b>"))
            #expect(html.contains(#"<details class="raw"><summary>The facts as stored (JSON)</summary>"#))
            #expect(html.contains("&quot;milliunits&quot; : 79900"))

            // The links lead where they say.
            let timeline = try await harness.send(.get, "/console/customer?q=2000000000000101", token: nil, headers: cookie)
            #expect(timeline.status == 200 && Self.html(timeline).contains("/console/decisions/offers/\(record.id)"))
            let byToken = try await harness.send(.get, "/console/customer?q=\(Self.token)", token: nil, headers: cookie)
            #expect(byToken.status == 200 && Self.html(byToken).contains("<code>2000000000000101</code>"))
            let rules = Self.html(try await harness.send(.get, "/console/rules", token: nil, headers: cookie))
            #expect(rules.contains(#"<tr id="rule-annual-full-price-payer" class="rule-line">"#))
            #expect(rules.contains(#"<tr id="rule-no-answer-without-consent" class="rule-line">"#), "a refunds veto has its row too")
        }
    }

    @Test func aRefundRequestLinksItsVetoAndEncodesHostileIds() async throws {
        try await RouterHarness.with(extraSettings: ["VERDICT_API_TOKENS": ConsoleTests.tokens]) { harness in
            let facts = """
                {"event": {"type": "CONSUMPTION_REQUEST", "consumptionRequestReason": "UNINTENDED_PURCHASE", "signedDate": 1795000000000},
                "purchase": {"transactionId": "3000000000000001", "productType": "Consumable", "price": {"currency": "EUR", "milliunits": 5000},
                "age": 7200000},
                "usage": {"deliveryStatus": "DELIVERED_BY_OWL"}}
                """
            func request(_ id: String, otid: String, token: String?, ruleId: String?, blockedBy: String?) -> ConsumptionRequestRecord {
                ConsumptionRequestRecord(
                    id: id, notificationUUID: UUID().uuidString.lowercased(), transactionId: "3000000000000001", originalTransactionId: otid,
                    appAccountToken: token, environment: "Sandbox", reason: "UNINTENDED_PURCHASE", requestedAt: 1_795_000_000_000,
                    deadline: 1_795_043_200_000, decidedAt: 1_795_000_001_000, bundleHash: "sha256:abc", ruleId: ruleId, ruleLine: ruleId == nil ? nil : 7,
                    blockedBy: blockedBy, consentBasis: .none, state: .notSent, body: nil,
                    json: #"{"explanation":"vetoed","facts":\#(facts)}"#)
            }
            let hostile = "2000<script>&q=1 #x"
            let vetoed = request("1b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3e01", otid: hostile, token: "not a <uuid>", ruleId: nil,
                                 blockedBy: "no-answer-without-consent")
            let gone = request("1b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3e02", otid: "2000000000000102", token: Self.token, ruleId: "gone <rule> & co",
                               blockedBy: nil)
            try await harness.service.apps.first.repository.importConsumptionRequests([vetoed, gone])
            let session = try #require(ConsoleTests.cookie("verdict_session", in: try await ConsoleTests.signIn(harness, token: ConsoleTests.viewer)))
            let cookie: HTTPFields = [.cookie: "verdict_session=\(session.value)"]

            let first = try await harness.send(.get, "/console/decisions/refunds/\(vetoed.id)", token: nil, headers: cookie)
            #expect(first.status == 200)
            let html = Self.html(first)
            #expect(html.contains(#"<a href="/console/customer?q=2000%3Cscript%3E%26q%3D1%20%23x"><code>2000&lt;script&gt;&amp;q=1 #x</code></a>"#),
                    "the id is percent-encoded in the link and escaped in the text")
            #expect(html.contains("<dd><code>not a &lt;uuid&gt;</code></dd>"), "a token the search cannot find is not linked")
            #expect(html.contains(#"vetoed by <a href="/console/rules#rule-no-answer-without-consent">no-answer-without-consent</a>"#))
            #expect(html.contains(#"<th scope="row"><code>purchase.price</code></th><td>5.00 EUR</td>"#))
            #expect(html.contains(#"<th scope="row"><code>purchase.age</code></th><td>2h</td>"#))
            #expect(html.contains(#"<th scope="row"><code>purchase.productType</code></th><td>CONSUMABLE <span class="muted">(Consumable)</span>"#))
            #expect(html.contains(#"<th scope="row"><code>usage.deliveryStatus</code></th><td>DELIVERED_BY_OWL <span class="muted">(not a value Verdict knows)</span>"#))
            #expect(!html.contains("<script"))

            let second = Self.html(try await harness.send(.get, "/console/decisions/refunds/\(gone.id)", token: nil, headers: cookie))
            #expect(second.contains(#"<a href="/console/customer?q=\#(Self.token)"><code>\#(Self.token)</code></a>"#), "the request's own token")
            #expect(second.contains(#"<dd>gone &lt;rule&gt; &amp; co <span class="muted">(line 7; not in the active bundle)</span></dd>"#),
                    "a rule the active bundle does not have is not linked")

            let list = Self.html(try await harness.send(.get, "/console/decisions?section=refunds", token: nil, headers: cookie))
            #expect(list.contains(#"<a href="/console/customer?q=2000%3Cscript%3E%26q%3D1%20%23x">"#), "the list encodes the link too")
        }
    }

    @Test func linksEncodeEveryReservedCharacterAndMoneyStaysExact() {
        #expect(ConsoleLinks.ruleAnchor("annual-full-price-payer") == "rule-annual-full-price-payer")
        #expect(ConsoleLinks.withoutApp.rule("a b/<c>#d\"é") == "/console/rules#rule-a%20b%2F%3Cc%3E%23d%22%C3%A9")
        #expect(ConsoleLinks.withoutApp.customer("1+2&q=3") == "/console/customer?q=1%2B2%26q%3D3")
        #expect(ConsoleFormat.money(milliunits: 79900, currency: "USD") == "79.90 USD")
        #expect(ConsoleFormat.money(milliunits: 9995, currency: "USD") == "9.995 USD")
        #expect(ConsoleFormat.money(milliunits: 5_800_000, currency: "JPY") == "5800.00 JPY")
        #expect(ConsoleFormat.money(milliunits: -500, currency: "EUR") == "-0.50 EUR")
        #expect(ConsoleFormat.money(milliunits: .min, currency: "EUR") == "-9223372036854775.808 EUR")
    }
}

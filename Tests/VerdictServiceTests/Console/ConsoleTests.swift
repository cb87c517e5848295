import AppStoreServer
import Foundation
import HTTPTypes
import Testing
@testable import VerdictService
import VerdictStorage

/// The console in-process: sign-in and its cookies, roles, CSRF, session expiry, the security
/// headers, the pages, and that no page shows a token or a signature.
@Suite struct ConsoleTests {
    static let viewer = "viewer-token-0123456789"
    static let app = "app-token-0123456789"
    static let tokens = "viewer:\(viewer),app:\(app),\(RouterHarness.token)"

    /// The `name=value` of a `Set-Cookie` header of `answer` for cookie `name`, and the whole header.
    static func cookie(_ name: String, in answer: RouterHarness.Answer) -> (value: String, header: String)? {
        for header in answer.headers[values: .setCookie] where header.hasPrefix(name + "=") {
            let value = header.dropFirst(name.count + 1).prefix { $0 != ";" }
            return (String(value), header)
        }
        return nil
    }

    /// The value of the hidden `csrf` field of a page.
    static func csrf(in body: Data) -> String? {
        let html = String(decoding: body, as: UTF8.self)
        guard let range = html.range(of: #"name="csrf" value=""#) else { return nil }
        return String(html[range.upperBound...].prefix { $0 != "\"" })
    }

    /// Signs in with `token`; returns the sign-in answer.
    static func signIn(_ harness: RouterHarness, token: String) async throws -> RouterHarness.Answer {
        let form = try await harness.send(.get, "/console/sign-in", token: nil)
        let csrf = try #require(Self.csrf(in: form.body))
        let cookie = try #require(Self.cookie("verdict_sign_in", in: form)).value
        let body = "token=\(token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")&csrf=\(csrf)"
        return try await harness.send(
            .post, "/console/sign-in", body: Data(body.utf8), contentType: "application/x-www-form-urlencoded", token: nil,
            headers: [.cookie: "verdict_sign_in=\(cookie)"])
    }

    @Test func signInOpensASessionWithAStrictCookieAndTheFormsCarryCSRF() async throws {
        try await RouterHarness.with(extraSettings: ["VERDICT_API_TOKENS": Self.tokens]) { harness in
            let anonymous = try await harness.send(.get, "/console/rules", token: nil)
            #expect(anonymous.status == 303 && anonymous.headers[.location] == "/console/sign-in")
            let form = try await harness.send(.get, "/console/sign-in", token: nil)
            #expect(form.status == 200)
            #expect(form.headers[.contentSecurityPolicy]?.contains("default-src 'none'") == true)
            #expect(form.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
            #expect(Self.cookie("verdict_sign_in", in: form)?.header.contains("HttpOnly") == true)

            for refused in ["wrong-token-0123456789", Self.app] {
                let answer = try await Self.signIn(harness, token: refused)
                #expect(answer.status == 401, "\(refused)")
                #expect(String(decoding: answer.body, as: UTF8.self).contains("This token does not open the console."))
                #expect(Self.cookie("verdict_session", in: answer) == nil)
            }
            let signedIn = try await Self.signIn(harness, token: Self.viewer)
            #expect(signedIn.status == 303 && signedIn.headers[.location] == "/console/overview")
            let session = try #require(Self.cookie("verdict_session", in: signedIn))
            for attribute in ["HttpOnly", "SameSite=Strict", "Path=/console", "Max-Age=43200"] {
                #expect(session.header.contains(attribute), "\(attribute) in \(session.header)")
            }
            #expect(!session.header.contains("Secure"), "no https public URL: not Secure")
            let cookie: HTTPFields = [.cookie: "verdict_session=\(session.value)"]

            for path in ["/console/overview", "/console/rules", "/console/decisions", "/console/decisions?section=refunds&since=2026-01-01", "/console/refunds"] {
                let page = try await harness.send(.get, path, token: nil, headers: cookie)
                #expect(page.status == 200, "\(path)")
                #expect(page.headers[.contentSecurityPolicy] != nil && page.headers[.cacheControl] == "no-store", "\(path)")
                let html = String(decoding: page.body, as: UTF8.self)
                #expect(html.contains("<html lang=\"en\">") && html.contains("aria-current=\"page\""), "\(path)")
                for secret in [Self.viewer, Self.app, RouterHarness.token, session.value] {
                    #expect(!html.contains(secret), "\(path) shows a secret")
                }
            }
            let rules = String(decoding: try await harness.send(.get, "/console/rules", token: nil, headers: cookie).body, as: UTF8.self)
            #expect(rules.contains("annual-full-price-payer") && rules.contains("no decision yet"))

            // Signing out needs the session's form token; without it nothing happens.
            let page = try await harness.send(.get, "/console/refunds", token: nil, headers: cookie)
            let csrf = try #require(Self.csrf(in: page.body))
            _ = try await harness.send(.post, "/console/sign-out", body: Data("csrf=forged".utf8),
                                       contentType: "application/x-www-form-urlencoded", token: nil, headers: cookie)
            #expect(try await harness.send(.get, "/console/rules", token: nil, headers: cookie).status == 200)
            let out = try await harness.send(.post, "/console/sign-out", body: Data("csrf=\(csrf)".utf8),
                                             contentType: "application/x-www-form-urlencoded", token: nil, headers: cookie)
            #expect(out.status == 303 && Self.cookie("verdict_session", in: out)?.header.contains("Max-Age=0") == true)
            #expect(try await harness.send(.get, "/console/rules", token: nil, headers: cookie).status == 303)
        }
    }

    @Test func aSignInFormWithoutItsTokenIsRefused() async throws {
        try await RouterHarness.with(extraSettings: ["VERDICT_API_TOKENS": Self.tokens]) { harness in
            let answer = try await harness.send(
                .post, "/console/sign-in", body: Data("token=\(Self.viewer)&csrf=guess".utf8),
                contentType: "application/x-www-form-urlencoded", token: nil, headers: [.cookie: "verdict_sign_in=other"])
            #expect(answer.status == 403)
            #expect(Self.cookie("verdict_session", in: answer) == nil)
        }
    }

    @Test func theReplayFormNeedsItsTokenAndReadsMultipart() async throws {
        try await RouterHarness.with(extraSettings: ["VERDICT_API_TOKENS": Self.tokens]) { harness in
            let session = try #require(Self.cookie("verdict_session", in: try await Self.signIn(harness, token: Self.viewer)))
            let cookie: HTTPFields = [.cookie: "verdict_session=\(session.value)"]
            let page = try await harness.send(.get, "/console/replay", token: nil, headers: cookie)
            let csrf = try #require(Self.csrf(in: page.body))
            func form(_ fields: [(String, String)]) -> Data {
                Data((fields.map { "--b0undary\r\nContent-Disposition: form-data; name=\"\($0.0)\"\r\n\r\n\($0.1)\r\n" }.joined()
                    + "--b0undary--\r\n").utf8)
            }
            let type = "multipart/form-data; boundary=b0undary"
            let forged = try await harness.send(.post, "/console/replay", body: form([("csrf", "forged"), ("section", "offers")]),
                                                contentType: type, token: nil, headers: cookie)
            #expect(forged.status == 403)
            let accepted = try await harness.send(.post, "/console/replay", body: form([("csrf", csrf), ("section", "offers"), ("sample", "5")]),
                                                  contentType: type, token: nil, headers: cookie)
            #expect(accepted.status == 303)
            let location = try #require(accepted.headers[.location])
            #expect(location.hasPrefix("/console/replay/"))
            let status = try await harness.send(.get, location, token: nil, headers: cookie)
            #expect(status.status == 200 && String(decoding: status.body, as: UTF8.self).contains("http-equiv=\"refresh\""),
                    "a queued replay's page reloads itself")
            #expect(status.headers[.contentSecurityPolicy]?.contains("frame-src 'self'") == true)
            let invalid = try await harness.send(.post, "/console/replay", body: form([("csrf", csrf), ("section", "all")]),
                                                 contentType: type, token: nil, headers: cookie)
            #expect(invalid.status == 422 && String(decoding: invalid.body, as: UTF8.self).contains("must be offers, refunds, retention or both"))
        }
    }

    @Test func anExpiredSessionIsSentToSignIn() async throws {
        try await RouterHarness.with(extraSettings: ["VERDICT_API_TOKENS": Self.tokens]) { harness in
            let id = "expired-session-id-0123456789"
            // A session of a configured token, valid but for its expiry.
            let now = Date().appStoreMilliseconds
            try await harness.service.apps.first.repository.createConsoleSession(ConsoleSessionRecord(
                idDigest: ConsoleSessions.digest(id), role: "viewer", csrfToken: "t", createdAt: now - 2 * 3_600_000,
                expiresAt: now - 1, tokenBinding: TokenDirectory.sessionBinding(of: Self.viewer, sessionId: id)))
            let answer = try await harness.send(.get, "/console/rules", token: nil, headers: [.cookie: "verdict_session=\(id)"])
            #expect(answer.status == 303 && answer.headers[.location] == "/console/sign-in")
        }
    }

    @Test func anHTTPSPublicURLMakesTheCookieSecureAndTheConsoleCanBeTurnedOff() async throws {
        try await RouterHarness.with(extraSettings: [
            "VERDICT_API_TOKENS": Self.tokens, "VERDICT_PUBLIC_URL": "https://verdict.example.com",
        ]) { harness in
            let signedIn = try await Self.signIn(harness, token: Self.viewer)
            #expect(Self.cookie("verdict_session", in: signedIn)?.header.contains("Secure") == true)
        }
        try await RouterHarness.with(extraSettings: ["VERDICT_CONSOLE": "false"]) { harness in
            let answer = try await harness.send(.get, "/console/sign-in", token: nil)
            #expect(answer.status == 404)
        }
    }

    @Test func aDecisionPageShowsTheExplanationAndFactsButNoSignature() async throws {
        try await RouterHarness.with(extraSettings: ["VERDICT_API_TOKENS": Self.tokens]) { harness in
            let record = OfferDecisionRecord(
                id: "0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d4e", originalTransactionId: "2000000000000001", notificationUUID: nil,
                trigger: "AUTO_RENEW_DISABLED", bundleHash: "sha256:abc", ruleId: "annual-full-price-payer", ruleLine: 86,
                offerId: "lumen-annual-40off", offerType: "PROMOTIONAL", productId: "com.lumen.pro.annual", heldOut: false,
                decidedAt: 1_795_000_000_000, expiresAt: 1_795_600_000_000,
                json: #"{"explanation":"result: offer lumen-annual-40off <script>","facts":{"subscription":{"productId":"com.lumen.pro.annual"}}}"#)
            _ = try await harness.service.apps.first.repository.insertOfferDecision(record, followUp: nil, caps: [])
            let session = try #require(Self.cookie("verdict_session", in: try await Self.signIn(harness, token: Self.viewer)))
            let page = try await harness.send(
                .get, "/console/decisions/offers/\(record.id)", token: nil, headers: [.cookie: "verdict_session=\(session.value)"])
            #expect(page.status == 200)
            let html = String(decoding: page.body, as: UTF8.self)
            #expect(html.contains(#"annual-full-price-payer</a> <span class="muted">(line 86)</span>"#) && html.contains("com.lumen.pro.annual"))
            #expect(html.contains("lumen-annual-40off &lt;script&gt;") && !html.contains("<script>"), "stored text is escaped")
            #expect(!html.lowercased().contains("signature") && !html.contains("jws"))
            let list = try await harness.send(.get, "/console/decisions?rule=annual-full-price-payer", token: nil,
                                              headers: [.cookie: "verdict_session=\(session.value)"])
            #expect(String(decoding: list.body, as: UTF8.self).contains("/console/decisions/offers/\(record.id)"))
            let missing = try await harness.send(.get, "/console/decisions/offers/\(UUID().uuidString)", token: nil,
                                                 headers: [.cookie: "verdict_session=\(session.value)"])
            #expect(missing.status == 404)
            let unknown = try await harness.send(.get, "/console/customer?q=1234", token: nil,
                                                 headers: [.cookie: "verdict_session=\(session.value)"])
            #expect(unknown.status == 404 && String(decoding: unknown.body, as: UTF8.self).contains("No subscriber is stored under 1234."))
            let form = try await harness.send(.get, "/console/customer", token: nil, headers: [.cookie: "verdict_session=\(session.value)"])
            #expect(form.status == 200)
        }
    }

    @Test func aCancelPageDecisionShowsItsAnswerAndWhatTheCustomerDid() async throws {
        try await RouterHarness.with(extraSettings: ["VERDICT_API_TOKENS": Self.tokens]) { harness in
            var records: [OfferDecisionRecord] = []
            for (index, offerType) in [Int32(5), 9].enumerated() {
                records.append(OfferDecisionRecord(
                    id: "0b1c2d3e-4f5a-4b6c-8d7e-9f0a1b2c3d5\(index)", originalTransactionId: "2000000000000002",
                    notificationUUID: UUID().uuidString.lowercased(), trigger: "REALTIME_REQUEST", bundleHash: "sha256:abc",
                    ruleId: nil, ruleLine: nil, offerId: nil, offerType: nil, productId: "com.lumen.pro.annual", heldOut: false,
                    decidedAt: 1_795_000_000_000, expiresAt: nil, json: #"{"explanation":"no answer","facts":{}}"#,
                    outcome: "retained", outcomeAt: 1_795_000_100_000, action: .appleOffer, actionOfferType: offerType))
                _ = try await harness.service.apps.first.repository.insertOfferDecision(records[index], followUp: nil, caps: [])
            }
            let session = try #require(Self.cookie("verdict_session", in: try await Self.signIn(harness, token: Self.viewer)))
            var pages: [String] = []
            for record in records {
                let page = try await harness.send(
                    .get, "/console/decisions/offers/\(record.id)", token: nil, headers: [.cookie: "verdict_session=\(session.value)"])
                #expect(page.status == 200)
                pages.append(String(decoding: page.body, as: UTF8.self))
            }
            #expect(pages[0].contains("Answer on the cancel page") && pages[0].contains("none: Apple falls back"))
            #expect(pages[0].contains("retained (apple_offer) offerType 5 RETENTION"))
            #expect(pages[1].contains("offerType 9 (unknown to Verdict)"), "an offerType Verdict does not know is shown as sent")
        }
    }
}

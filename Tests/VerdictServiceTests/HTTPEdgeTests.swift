import AppStoreServer
import Foundation
import HTTPTypes
import Testing
import VerdictService
import VerdictStorage

/// The HTTP edge: over real sockets, a client too slow to send its request is cut off (the
/// connection limit: `IdleConnectionTests`); in-process, per-token rate limits
/// answer 429 with `Retry-After` — never to Apple's notifications or realtime requests.
@Suite struct HTTPEdgeTests {
    static func port(_ harness: ServiceHarness) throws -> Int {
        try #require(URL(string: harness.baseURL)?.port)
    }

    @Test func aClientTooSlowToSendItsRequestIsCutOff() async throws {
        // 3 s: long enough for a loaded machine to read a prompt request, short enough to wait out.
        try await ServiceHarness.with(.sqlite, extraSettings: [
            "VERDICT_HTTP_FIRST_REQUEST_TIMEOUT": "3", "VERDICT_HTTP_REQUEST_TIMEOUT": "3",
        ]) { harness in
            // Headers that never end (slowloris), and a silent connection.
            let slow = try RawConnection(port: try Self.port(harness))
            slow.write("POST /v1/notifications HTTP/1.1\r\nHost: verdict\r\nContent-Type: application/json\r\n")
            let silent = try RawConnection(port: try Self.port(harness))
            let (text, closed) = await slow.readUntilClosed(timeout: .seconds(15))
            #expect(closed && text.isEmpty, "cut off without an answer: \(text)")
            #expect(await silent.readUntilClosed(timeout: .seconds(15)).closed)
            // A body that stops half-way is cut off too.
            let halfBody = try RawConnection(port: try Self.port(harness))
            halfBody.write("POST /v1/notifications HTTP/1.1\r\nHost: verdict\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"signed")
            #expect(await halfBody.readUntilClosed(timeout: .seconds(15)).closed)
            // A client that sends in time is answered; left idle afterwards, its connection is closed too.
            let prompt = try RawConnection(port: try Self.port(harness))
            prompt.write("GET /healthz HTTP/1.1\r\nHost: verdict\r\n\r\n")
            let answer = await prompt.readUntilClosed(timeout: .seconds(15))
            #expect(answer.text.hasPrefix("HTTP/1.1 200") && answer.closed, "\(answer.text) closed: \(answer.closed)")
            #expect(try await harness.request(.GET, "/healthz").status == 200)
        }
    }

    @Test func perTokenRateLimitsAnswer429WithRetryAfterNeverToAppleAndLimitConsoleSessions() async throws {
        try await RouterHarness.with(extraSettings: [
            "VERDICT_API_TOKENS": ConsoleTests.tokens, "VERDICT_RATE_LIMIT_PER_SECOND": "1", "VERDICT_RATE_LIMIT_BURST": "1",
        ]) { harness in
            // Eight at once against a burst of one: however loaded the machine, some are refused.
            let answers = try await Self.concurrently(8) { try await harness.send(.get, "/v1/rules") }
            let refused = try #require(answers.first { $0.status == 429 }, "\(answers.map(\.status))")
            #expect(answers.contains { $0.status == 200 })
            #expect(refused.headers[.retryAfter] == "1")
            #expect(refused.body.jsonObject[path: "error.code"]?.stringValue == "RATE_LIMITED")
            // Another token has its own bucket.
            #expect(try await harness.send(.get, "/v1/rules", token: ConsoleTests.viewer).status == 200)
            // Apple's notifications and realtime requests carry no token: never limited.
            for path in ["/v1/notifications", "/v1/retention/realtime"] {
                for _ in 0..<5 {
                    let answer = try await harness.send(.post, path, body: Data(#"{"signedPayload":"a.b.c"}"#.utf8), token: nil)
                    #expect(answer.status != 429, "\(path)")
                }
            }

            let session = try #require(ConsoleTests.cookie("verdict_session", in: try await ConsoleTests.signIn(harness, token: ConsoleTests.viewer)))
            let cookie: HTTPFields = [.cookie: "verdict_session=\(session.value)"]
            let pages = try await Self.concurrently(8) { try await harness.send(.get, "/console/rules", token: nil, headers: cookie) }
            #expect(pages.contains { $0.status == 200 } && pages.contains { $0.status == 429 }, "\(pages.map(\.status))")
        }
    }

    @Test func requestsBeyondTheConcurrencyLimitGetA503ButProbesStillAnswer() async throws {
        try await ServiceHarness.with(.sqlite, extraSettings: [
            "VERDICT_HTTP_MAX_CONCURRENT_REQUESTS": "1", "VERDICT_RETENTION_DEADLINE": "3000",
        ]) { harness in
            // A subscriber stored directly (no notification traffic to compete for the one place).
            let otid = "2999999999999997"
            let purchase = JWSTransactionDecodedPayload(
                originalTransactionId: otid, transactionId: otid, productId: "com.lumen.pro.annual", purchaseDate: harness.store.now,
                expiresDate: harness.store.now.addingTimeInterval(365 * 86_400), type: .autoRenewable, signedDate: harness.store.now,
                environment: .sandbox, currency: "USD", price: 59_990)
            try await harness.service.apps.first.repository.importCustomers([CustomerRecord(
                originalTransactionId: otid, appAccountToken: nil, appTransactionId: nil, environment: "Sandbox", firstSeenAt: 0,
                historyRevision: nil, historySyncedAt: nil)])
            try await harness.service.apps.first.repository.importTransactions([try #require(TransactionRecord(purchase, json: nil))])
            let request = DecodedRealtimeRequestBody(
                originalTransactionId: otid, appAppleId: 1_234_567_890, productId: "com.lumen.pro.annual",
                userLocale: "en-US", requestIdentifier: UUID(), signedDate: harness.store.now, environment: .sandbox)
            let body = RealtimeRequestBody(signedPayload: try harness.store.signer.sign(request))
            // The database stalls: the realtime request holds the only place until its deadline.
            let stalled = try await RealtimePerformanceTests.stall(harness, for: .seconds(30))
            defer { stalled.cancel() }
            let answered = ProcessTests.Flag()
            async let slow = { () async throws -> (status: Int, body: Data) in
                defer { answered.set() }
                return try await RetentionRealtimeTests.post(harness, body)
            }()
            // While it holds the place (up to its 3 s deadline), another request is refused at once:
            // asked until it is answered, however late a loaded machine lets it start.
            var refusal: (status: Int, body: Data)?
            let giveUp = ContinuousClock.now + .seconds(25)
            while refusal == nil, !answered.isSet, ContinuousClock.now < giveUp {
                try await Task.sleep(for: .milliseconds(100))
                let answer = try await HTTP.send(.GET, harness.baseURL + "/v1/rules", token: ServiceHarness.token)
                if answer.status == 503 { refusal = answer }
            }
            let refused = try #require(refusal)
            #expect(refused.body.jsonObject["error"]?.objectValue?["code"]?.stringValue == "OVERLOADED")
            #expect(try await harness.request(.GET, "/healthz").status == 200, "the liveness probe is never refused")
            #expect(try await slow.status == 200, "the request holding the place is answered (Apple's fallback)")
            stalled.cancel()
            _ = await stalled.result
            #expect(try await harness.request(.GET, "/v1/rules").status == 200)
        }
    }

    /// `count` runs of `request` at once.
    static func concurrently(_ count: Int, _ request: @escaping @Sendable () async throws -> RouterHarness.Answer) async throws
        -> [RouterHarness.Answer]
    {
        try await withThrowingTaskGroup(of: RouterHarness.Answer.self) { group in
            for _ in 0..<count { group.addTask { try await request() } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
    }
}

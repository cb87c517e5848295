import AppStoreSimulator
import Foundation
import Testing
import VerdictService

/// Connections that send nothing cannot keep clients out (over real sockets): at the connection
/// limit the longest-idle connection gives up its place, a client is refused only when every place
/// holds a request in progress, and a connection that sends no whole request within the
/// first-request timeout is closed.
@Suite struct IdleConnectionTests {
    /// A request written whole on a new connection, with its status line and how long the answer took.
    static func ask(_ port: Int, _ request: String) async throws -> (text: String, took: Duration) {
        let started = ContinuousClock.now
        let connection = try RawConnection(port: port)
        connection.write(request)
        let (text, _) = await connection.readUntilClosed(timeout: .seconds(20))
        return (text, ContinuousClock.now - started)
    }

    static func get(_ path: String, token: String? = nil) -> String {
        "GET \(path) HTTP/1.1\r\nHost: verdict\r\nConnection: close\r\n"
            + (token.map { "Authorization: Bearer \($0)\r\n" } ?? "") + "\r\n"
    }

    @Test func twoThousandSilentConnectionsKeepNoClientOut() async throws {
        try await ServiceHarness.with(.sqlite) { harness in
            let port = try HTTPEdgeTests.port(harness)
            // 2,000 connections that never send a byte, against the default limit of 1,024.
            let silent = try await RawConnection.open(count: 2_000, port: port)
            try await Task.sleep(for: .milliseconds(300))

            let health = try await Self.ask(port, Self.get("/healthz"))
            #expect(health.text.hasPrefix("HTTP/1.1 200"), "\(health.text.prefix(200))")
            #expect(health.took < .seconds(2), "/healthz took \(health.took)")
            let rules = try await Self.ask(port, Self.get("/v1/rules", token: ServiceHarness.token))
            #expect(rules.text.hasPrefix("HTTP/1.1 200"), "\(rules.text.prefix(200))")
            #expect(rules.took < .seconds(2), "GET /v1/rules took \(rules.took)")

            // Apple's notification is accepted (and stored) on a new connection.
            await harness.simulator.deliverer.setDeliveryURL(nil)
            let bought = try await harness.store.subscribe(SubscribeRequest(productId: "com.example.monthly"))
            let body = #"{"signedPayload":"\#(bought.notification.signedPayload)"}"#
            let notification = try await Self.ask(port, "POST /v1/notifications HTTP/1.1\r\nHost: verdict\r\nConnection: close\r\n"
                + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
            #expect(notification.text.hasPrefix("HTTP/1.1 200"), "\(notification.text.prefix(300))")
            _ = try await harness.waitUntilProcessed(bought.notification.notificationUUID)

            // The places went to the newcomers: idle connections were closed to make room.
            let metrics = String(decoding: try await harness.request(.GET, "/metrics").body, as: UTF8.self)
            #expect(metrics.contains(#"verdict_http_connections_closed_total{reason="idle_shed"}"#))
            withExtendedLifetime(silent) {}
        }
    }

    @Test func aClientIsRefusedOnlyWhenEveryPlaceHoldsARequestInProgress() async throws {
        try await ServiceHarness.with(.sqlite, extraSettings: ["VERDICT_HTTP_MAX_CONNECTIONS": "3"]) { harness in
            let port = try HTTPEdgeTests.port(harness)
            // Idle connections fill every place; a client is still answered.
            var idle = try (0..<3).map { _ in try RawConnection(port: port) }
            try await Task.sleep(for: .milliseconds(200))
            #expect(try await Self.ask(port, Self.get("/healthz")).text.hasPrefix("HTTP/1.1 200"))
            idle.removeAll()

            // Three requests in progress (bodies that have not finished) hold every place.
            let busy = try (0..<3).map { _ in
                let connection = try RawConnection(port: port)
                connection.write("POST /v1/notifications HTTP/1.1\r\nHost: verdict\r\nContent-Type: application/json\r\n"
                    + "Content-Length: 100\r\n\r\n{\"signed")
                return connection
            }
            // Asked until refused: however late a loaded machine reads the busy connections' heads.
            var refusal = ""
            for _ in 0..<50 where !refusal.hasPrefix("HTTP/1.1 503") {
                try await Task.sleep(for: .milliseconds(100))
                refusal = try await Self.ask(port, Self.get("/healthz")).text
            }
            #expect(refusal.hasPrefix("HTTP/1.1 503"), "\(refusal)")
            #expect(refusal.lowercased().contains("retry-after: 1"), "\(refusal)")
            #expect(refusal.contains(#"{"error":{"code":"TOO_MANY_CONNECTIONS""#), "\(refusal)")
            withExtendedLifetime(busy) {}
        }
    }

    @Test func aConnectionThatSendsNoWholeRequestInTimeIsClosed() async throws {
        try await ServiceHarness.with(.sqlite, extraSettings: [
            "VERDICT_HTTP_FIRST_REQUEST_TIMEOUT": "2", "VERDICT_HTTP_REQUEST_TIMEOUT": "60",
        ]) { harness in
            let port = try HTTPEdgeTests.port(harness)
            let silent = try RawConnection(port: port)
            let (text, closed) = await silent.readUntilClosed(timeout: .seconds(20))
            #expect(closed && text.isEmpty, "closed without an answer: \(text)")
            // A connection that was answered has the (longer) request timeout for its next request.
            let answered = try RawConnection(port: port)
            answered.write(Self.get("/healthz").replacingOccurrences(of: "Connection: close\r\n", with: ""))
            let first = await answered.readUntilClosed(timeout: .seconds(6))
            #expect(first.text.hasPrefix("HTTP/1.1 200") && !first.closed, "\(first)")
            let metrics = String(decoding: try await harness.request(.GET, "/metrics").body, as: UTF8.self)
            #expect(metrics.contains(#"verdict_http_connections_closed_total{reason="first_request_timeout"}"#))
        }
    }
}

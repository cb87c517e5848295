import Foundation
import Testing

/// `verdict demo --no-serve` (the README's first command, without the serving part) runs the
/// whole scenario as a child process: the simulator and the service wired together for two apps,
/// every decision printed (the cancel page's, the team's and the second app's included), the
/// consumption bodies Apple received shown, and a clean exit.
@Suite struct DemoCommandTests {
    @Test func demoPlaysTheScenarioAndExits() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-demo-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // With an OTLP endpoint set, the demo's service exports its traces as `verdict serve` does.
        let (status, output, spans) = try await OTLPReceiver.with { receiver, endpoint in
            let (status, output) = try await ServiceProcess.run(
                ["demo", "--no-serve", "--port", "0", "--rules-dir", ServiceHarness.rulesDirectory,
                 "--tempo-rules-dir", Self.tempoRulesDirectory],
                settings: ["OTEL_EXPORTER_OTLP_ENDPOINT": endpoint, "OTEL_BSP_SCHEDULE_DELAY": "100"],
                directory: directory, name: "demo", timeout: .seconds(120))
            return (status, output, receiver.spans)
        }
        #expect(status == 0, "\(output.suffix(2_000))")
        #expect(spans.contains { $0.name == "POST /v1/notifications" && $0.resource["service.name"] == "verdict" })
        #expect(spans.contains { $0.attributes["verdict.rules.rule_id"] == "annual-full-price-payer" }, "\(spans.count) spans")
        // Only the service's spans: the demo's and the simulator's HTTP clients (whole URLs, a
        // customer's appAccountToken in a path) trace nothing.
        #expect(spans.allSatisfy { $0.attributes["url.full"] == nil && $0.attributes["url.path"] == nil })
        // Roots: requests, jobs, recoveries, and the messages the demo uploads to Apple itself.
        let roots = spans.filter { $0.parentSpanId.isEmpty && ![2, 5].contains($0.kind) && !$0.name.hasPrefix("App Store Server API ") }
        #expect(roots.isEmpty, "\(roots.map { "\($0.name) (\($0.kind))" })")
        for rule in ["annual-full-price-payer", "monthly-loyal-full-price", "discount-only-customers", "winback-lapsed-payers",
                     "accidental-purchase-unused", "not-delivered", "no-answer-without-consent", "cancel-page-annual-full-price",
                     "team-seat-reduction"] {
            #expect(output.contains(rule), "the demo output names \(rule)")
        }
        // The exact bodies Apple received, and the refusal to answer without consent.
        #expect(output.contains(#"{"consumptionPercentage":0,"customerConsented":true,"deliveryStatus":"DELIVERED","refundPreference":"GRANT_FULL""#))
        #expect(output.contains(#""deliveryStatus":"UNDELIVERED_SERVER_OUTAGE","refundPreference":"GRANT_FULL""#))
        #expect(output.contains("nothing sent (vetoed by no-answer-without-consent)"))
        #expect(output.contains("REFUND_DECLINED"))
        // The team: 12 seats charged 101.88 USD in all, and a member's refund request left unanswered.
        #expect(output.contains("subscription.seats = 12"))
        #expect(output.contains("lumen-team-seats-25off (PROMOTIONAL)"))
        #expect(output.contains("vetoed by assigned-transaction") && output.contains("(4000227))"))
        // The cancel page: Apple's realtime call answered with the German text and a signed offer.
        #expect(output.contains("Bleib bei Lumen Pro") && output.contains("with a promotional offer, signed by Verdict (V2 JWS"))
        // The signed promotional offer and the curl examples.
        #expect(output.contains("keyIdentifier"))
        #expect(output.contains("curl -s"))
        // The guide is generated from the OpenAPI document: every operation but the deprecated one.
        for operation in OpenAPIContract.service.operations where operation != "GET /v1/customers/{appAccountToken}/offer" {
            #expect(output.contains("# \(operation) — "), "the demo's guide lists \(operation)")
        }
        #expect(!output.contains("/v1/customers/{appAccountToken}/offer"))
        try Self.expectSecondApp(in: output)
    }

    /// The second app, Tempo, is served beside Lumen: its case is decided by Tempo's own rule (of
    /// Tempo's rules file) and its offer is signed with Tempo's key, which is not Lumen's; Lumen's
    /// token cannot read Tempo's decision; the guide names the app where an operation needs it.
    static func expectSecondApp(in output: String) throws {
        let lumenKey = try #require(bannerKey("Lumen", in: output), "the banner gives Lumen's key id")
        let tempoKey = try #require(bannerKey("Tempo", in: output), "the banner gives Tempo's key id")
        #expect(lumenKey != tempoKey)

        let lumen = try #require(caseText("(a) Annual subscriber who paid full price", in: output))
        #expect(lumen.contains("app              Lumen (com.lumen.app)"))
        #expect(signatureKey(in: lumen) == lumenKey)

        let tempo = try #require(caseText("(l) Tempo annual runner who paid full price", in: output), "\(output.suffix(3_000))")
        #expect(tempo.contains("app              Tempo (com.tempo.app)"))
        #expect(tempo.contains("rule             annual-runner-renewal"))
        #expect(tempo.contains("offer            tempo-annual-30off (PROMOTIONAL)"))
        #expect(tempo.contains("examples/tempo/tempo.rules.yaml:"), "the explanation names Tempo's rules file")
        #expect(!tempo.contains("Rules/retention.rules.yaml"))
        #expect(signatureKey(in: tempo) == tempoKey, "Tempo's offer is signed with Tempo's key, not Lumen's \(lumenKey)")
        #expect(tempo.contains("signed with      Tempo's own key \(tempoKey); Lumen's offers are signed with \(lumenKey)"))
        #expect(tempo.contains("answers 404:"), "Lumen's token does not see Tempo's decision")

        // The guide: Tempo's operations about the app as a whole name it; a record named by its id needs no header.
        #expect(output.contains("-H 'Verdict-App: com.tempo.app'"))
        let rules = output.split(separator: "\n").filter { $0.contains("curl ") && $0.hasSuffix("/v1/rules'") }
        #expect(rules.contains { $0.contains("Verdict-App: com.tempo.app") })
        #expect(rules.contains { !$0.contains("Verdict-App") }, "Lumen's own token needs no header")
    }

    /// `examples/tempo` of the repository.
    static var tempoRulesDirectory: String {
        URL(fileURLWithPath: ServiceHarness.rulesDirectory).deletingLastPathComponent()
            .appendingPathComponent("examples/tempo").path
    }

    /// The key id the start banner gives for `app` (`  Tempo   com.tempo.app · App Apple ID … · key ABC`).
    static func bannerKey(_ app: String, in output: String) -> String? {
        output.split(separator: "\n").first { $0.hasPrefix("  \(app) ") && $0.contains(" · key ") }
            .flatMap { $0.components(separatedBy: " · key ").last }
    }

    /// The lines of the case titled exactly `title`, up to the next case or part.
    static func caseText(_ title: String, in output: String) -> String? {
        let lines = output.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(of: "  ▸ \(title)"[...]) else { return nil }
        let rest = lines[(start + 1)...]
        let end = rest.firstIndex { $0.hasPrefix("  ▸ ") || (!$0.isEmpty && !$0.hasPrefix(" ")) } ?? lines.endIndex
        return lines[start..<end].joined(separator: "\n")
    }

    /// The `keyIdentifier` of the signature a case's text shows.
    static func signatureKey(in text: String) -> String? {
        text.split(separator: "\n").first { $0.contains("keyIdentifier") }
            .flatMap { $0.split(separator: " ").last.map(String.init) }
    }
}

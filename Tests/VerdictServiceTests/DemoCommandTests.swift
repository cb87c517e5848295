import Foundation
import Testing

/// `verdict demo --no-serve` (the README's first command, without the serving part) runs the
/// whole scenario as a child process: the simulator and the service wired together, every
/// decision printed (the cancel page's and the team's included), the consumption bodies Apple
/// received shown, and a clean exit.
@Suite struct DemoCommandTests {
    @Test func demoPlaysTheScenarioAndExits() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-demo-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (status, output) = try await ServiceProcess.run(
            ["demo", "--no-serve", "--port", "0", "--rules-dir", ServiceHarness.rulesDirectory],
            settings: [:], directory: directory, name: "demo", timeout: .seconds(120))
        #expect(status == 0, "\(output.suffix(2_000))")
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
    }
}

import Foundation

/// The closing part of `verdict demo`: where the service and the simulator listen, the API
/// token, and a ready-to-paste `curl` for every endpoint of the service, filled in with ids from
/// the scenario that just played (so each one answers with real data).
struct DemoEndpointGuide {
    /// One endpoint: what it is for and the command that calls it.
    struct Example {
        var title: String
        var command: String
        var note: String?
    }

    let serviceURL: String
    let simulatorURL: String
    let token: String
    let summary: DemoSummary
    /// A file holding `{"signedPayload": …}` of a notification the service already received
    /// (nil: the POST example uses a placeholder).
    let sampleNotificationFile: String?

    /// Writes the body of the scenario's first notification, exactly as Apple's (the
    /// simulator's) POST carried it, to `directory/notification.json`; returns the path.
    static func saveSampleNotification(uuid: String?, signedPayload: String?, in directory: URL) -> String? {
        guard uuid != nil, let signedPayload else { return nil }
        let file = directory.appendingPathComponent("notification.json")
        do {
            try Data(#"{"signedPayload":"\#(signedPayload)"}"#.utf8).write(to: file)
            return file.path
        } catch {
            return nil
        }
    }

    /// Prints the addresses, the token and the examples; `serving` adds the Ctrl-C line.
    func print(to output: DemoOutput, serving: Bool) {
        output.banner("3. Try it yourself")
        output.field("Verdict service", serviceURL, indent: "  ")
        output.field("App Store sim", simulatorURL + "   (control API: GET \(simulatorURL)/simulator)", indent: "  ")
        output.field("API token", token + "   (send as Authorization: Bearer …)", indent: "  ")
        for (group, examples) in groups {
            output.line()
            output.line("  " + group)
            for example in examples {
                output.line("    # " + example.title)
                if let note = example.note { output.line("    #   " + note) }
                output.line("    " + example.command)
            }
        }
        output.line()
        if serving {
            output.line("Serving until you stop it. Press Ctrl-C to stop (the temporary database is deleted).")
        } else {
            output.line("--no-serve: stopping now; the addresses above are no longer served.")
        }
    }

    /// `curl` with the token (unless `open`), `-X` for writes, and a JSON body.
    private func curl(_ path: String, method: String = "GET", json: String? = nil, open: Bool = false, base: String? = nil) -> String {
        var parts = ["curl -s"]
        if method != "GET" { parts.append("-X \(method)") }
        if !open { parts.append("-H 'Authorization: Bearer \(token)'") }
        if let json {
            parts.append("-H 'Content-Type: application/json'")
            parts.append("-d " + DemoFormat.shellQuoted(json))
        }
        parts.append(DemoFormat.shellQuoted((base ?? serviceURL) + path))
        return parts.joined(separator: " ")
    }

    /// The examples, grouped as the API is.
    private var groups: [(String, [Example])] {
        let annual = summary.result("annual-full-price")
        let loyal = summary.result("monthly-loyal-jpy")
        let accidental = summary.result("accidental-purchase")
        let noConsent = summary.result("no-consent")
        let otid = annual?.originalTransactionId ?? "ORIGINAL_TRANSACTION_ID"
        let decisionId = annual?.decisionId ?? "DECISION_ID"
        let customer = accidental?.appAccountToken ?? "APP_ACCOUNT_TOKEN"
        let unconsented = noConsent?.appAccountToken ?? customer
        let transactionId = accidental?.transactionId ?? "TRANSACTION_ID"
        let uuid = summary.sampleNotificationUUID ?? "NOTIFICATION_UUID"
        let reportedFacts = (try? DemoRefundFacts(
            deliveryStatus: .delivered, consumptionPercentage: 0, sampleContentProvided: true, sessionsSincePurchase: 0).json()) ?? "{}"
        let postBody = sampleNotificationFile.map { "--data-binary @\($0)" } ?? #"-d '{"signedPayload":"<the JWS Apple sent>"}'"#
        return [
            ("Operations (no token needed except /metrics)", [
                Example(title: "GET /healthz — is the process up", command: curl("/healthz", open: true)),
                Example(title: "GET /readyz — database, migrations, rules and App Store key", command: curl("/readyz", open: true)),
                Example(title: "GET /metrics — Prometheus metrics", command: curl("/metrics")),
                Example(title: "GET /openapi.yaml — the full API description", command: curl("/openapi.yaml", open: true)),
            ]),
            ("Notifications from Apple", [
                Example(
                    title: "POST /v1/notifications — Apple's endpoint: Apple POSTs {\"signedPayload\": \"<JWS>\"}; no token, the signature is checked",
                    command: "curl -s -X POST -H 'Content-Type: application/json' \(postBody) \(DemoFormat.shellQuoted(serviceURL + "/v1/notifications"))",
                    note: "re-sends a notification the simulator already delivered: answers status \"duplicate\""),
                Example(title: "GET /v1/notifications/{uuid} — a notification, its processing state and result",
                        command: curl("/v1/notifications/\(uuid)")),
                Example(title: "GET /v1/jobs — background jobs (dead ones by default; here: finished ones)",
                        command: curl("/v1/jobs?state=done&limit=5")),
            ]),
            ("Retention offers", [
                Example(title: "GET /v1/decisions?originalTransactionId=… — a subscriber's decisions, newest first",
                        command: curl("/v1/decisions?originalTransactionId=\(otid)")),
                Example(title: "GET /v1/decisions/{id} — one decision with its explanation and facts",
                        command: curl("/v1/decisions/\(decisionId)")),
                Example(title: "GET /v1/customers/{originalTransactionId}/offer — the pending offer, freshly signed",
                        command: curl("/v1/customers/\(otid)/offer")),
                Example(title: "POST /v1/offers/decide — decide now (e.g. on the app's own cancel screen)",
                        command: curl("/v1/offers/decide", method: "POST",
                                      json: #"{"originalTransactionId":"\#(loyal?.originalTransactionId ?? otid)","trigger":"IN_APP"}"#)),
                Example(title: "POST /v1/offers/signatures — sign any promotional offer of the catalog",
                        command: curl("/v1/offers/signatures", method: "POST",
                                      json: #"{"productId":"com.lumen.pro.annual","offerId":"lumen-annual-40off","transactionId":"\#(otid)"}"#)),
            ]),
            ("Customers (by appAccountToken)", [
                Example(title: "PUT /v1/customers/{token}/attributes — values rules read as customer.attributes",
                        command: curl("/v1/customers/\(customer)/attributes", method: "PUT", json: #"{"exportsLast30Days":42}"#)),
                Example(title: "GET /v1/customers/{token}/attributes", command: curl("/v1/customers/\(customer)/attributes")),
                Example(title: "PUT /v1/customers/{token}/consent — record the customer's answer (here: case h finally agrees)",
                        command: curl("/v1/customers/\(unconsented)/consent", method: "PUT",
                                      json: #"{"consented":true,"source":"demo","termsVersion":"2026-11"}"#)),
                Example(title: "GET /v1/customers/{token}/consent — consent basis and ledger",
                        command: curl("/v1/customers/\(customer)/consent")),
            ]),
            ("Refund requests", [
                Example(title: "PUT /v1/transactions/{id}/facts — what the app knows about a purchase (usage.*)",
                        command: curl("/v1/transactions/\(transactionId)/facts", method: "PUT",
                                      json: reportedFacts)),
                Example(title: "GET /v1/transactions/{id}/facts", command: curl("/v1/transactions/\(transactionId)/facts")),
                Example(title: "GET /v1/consumption/{transactionId} — the refund request, the answer sent and Apple's outcome",
                        command: curl("/v1/consumption/\(transactionId)")),
                Example(title: "GET /v1/consumption — the newest refund requests", command: curl("/v1/consumption?limit=10")),
            ]),
            ("Rules", [
                Example(title: "GET /v1/rules — the loaded rule bundle", command: curl("/v1/rules")),
                Example(title: "GET /v1/rules/stats — per rule: treatment vs holdout, answers sent, Apple's outcomes",
                        command: curl("/v1/rules/stats")),
            ]),
            ("The simulated App Store (no token): play more scenarios, watch what Apple received", [
                Example(title: "a new annual subscriber (delivered to Verdict at once)",
                        command: curl("/simulator/scenarios/subscribe", method: "POST",
                                      json: #"{"productId":"com.lumen.pro.annual","price":59990,"currency":"USD","period":"P1Y"}"#,
                                      open: true, base: simulatorURL),
                        note: "its answer's transaction.originalTransactionId goes into the next example"),
                Example(title: "…who turns auto-renew off (then ask GET /v1/decisions for it)",
                        command: curl("/simulator/scenarios/auto-renew", method: "POST",
                                      json: #"{"originalTransactionId":"ORIGINAL_TRANSACTION_ID","enabled":false}"#,
                                      open: true, base: simulatorURL)),
                Example(title: "every Send Consumption Information body Apple received",
                        command: curl("/simulator/consumption-requests", open: true, base: simulatorURL)),
            ]),
        ]
    }
}

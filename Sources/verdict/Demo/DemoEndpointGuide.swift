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
        output.banner("5. Try it yourself")
        output.field("Verdict service", serviceURL, indent: "  ")
        output.field("Console", serviceURL + "/console   (sign in with the API token)", indent: "  ")
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

    /// The examples: every operation of the service's OpenAPI document, grouped by its tags, with
    /// the scenario's ids in the path and in the body examples; then the simulator's own.
    private var groups: [(String, [Example])] {
        let annual = summary.result("annual-full-price")
        let loyal = summary.result("monthly-loyal-jpy")
        let accidental = summary.result("accidental-purchase")
        let otid = annual?.originalTransactionId ?? "ORIGINAL_TRANSACTION_ID"
        let values = [
            "originalTransactionId": loyal?.originalTransactionId ?? otid,
            "decisionId": annual?.decisionId ?? "DECISION_ID",
            "appAccountToken": accidental?.appAccountToken ?? "APP_ACCOUNT_TOKEN",
            "transactionId": accidental?.transactionId ?? "TRANSACTION_ID",
            "notificationUUID": summary.sampleNotificationUUID ?? "NOTIFICATION_UUID",
        ]
        let postBody = sampleNotificationFile.map { "--data-binary @\($0)" } ?? #"-d '{"signedPayload":"<the JWS Apple sent>"}'"#
        let documented = ((try? DemoAPIOperations.service())?.groups ?? []).map { group in
            (group.description, group.operations.map { operation -> Example in
                let title = "\(operation.method) \(operation.path) — \(operation.summary)"
                if operation.method == "POST", operation.path == "/v1/notifications" {
                    // Apple's own endpoint: the body is a notification the simulator already delivered.
                    return Example(
                        title: title,
                        command: "curl -s -X POST -H 'Content-Type: application/json' \(postBody) \(DemoFormat.shellQuoted(serviceURL + "/v1/notifications"))",
                        note: "re-sends a notification the simulator already delivered: answers status \"duplicate\"")
                }
                var path = operation.path
                for (name, value) in values { path = path.replacingOccurrences(of: "{\(name)}", with: value) }
                if !operation.query.isEmpty {
                    path += "?" + operation.query.map { "\($0.name)=\(values[$0.name] ?? $0.value)" }.joined(separator: "&")
                }
                return Example(
                    title: title,
                    command: curl(path, method: operation.method, json: operation.body.flatMap { Self.json($0, values) }, open: operation.open))
            })
        }
        return documented + [
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
                Example(title: "…who opens the subscription in the App Store's settings (Verdict answers the cancel page)",
                        command: curl("/simulator/scenarios/view-subscription", method: "POST",
                                      json: #"{"originalTransactionId":"ORIGINAL_TRANSACTION_ID","userLocale":"en-US"}"#,
                                      open: true, base: simulatorURL)),
                Example(title: "every Send Consumption Information body Apple received",
                        command: curl("/simulator/consumption-requests", open: true, base: simulatorURL)),
            ]),
        ]
    }

    /// A body example as JSON, with the scenario's ids for fields named like them.
    private static func json(_ example: Any, _ values: [String: String]) -> String? {
        guard var object = example as? [String: Any] else { return nil }
        for (name, value) in values where object[name] != nil { object[name] = value }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            return nil
        }
        return String(decoding: data, as: UTF8.self)
    }
}

import Foundation

/// The closing part of `verdict demo`: where the service and the simulator listen, the API
/// tokens, and a ready-to-paste `curl` for every endpoint of the service, filled in with ids from
/// the scenario that just played (so each one answers with real data): every operation with the
/// first app's token, then a few for the second app with the token of both apps, which names the
/// app in the `Verdict-App` header where the operation acts for one app.
struct DemoEndpointGuide {
    /// One endpoint: what it is for and the command that calls it.
    struct Example {
        var title: String
        var command: String
        var note: String?
    }

    let serviceURL: String
    let simulatorURL: String
    /// The first app's token (every operation's example uses it, but `/metrics`: the token of
    /// every app).
    let token: String
    /// The token of every app.
    let sharedToken: String
    /// The apps served, the first being the one ``token`` acts for.
    let apps: [DemoApp]
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
        output.banner("6. Try it yourself")
        output.field("Verdict service", serviceURL, indent: "  ")
        output.field("Console", serviceURL + "/console   (sign in with a token; the token of both apps switches apps)", indent: "  ")
        output.field("App Store sim", simulatorURL + "   (control API: GET \(simulatorURL)/simulator)", indent: "  ")
        output.field("API token", token + "   (\(apps[0].name)'s; send as Authorization: Bearer …)", indent: "  ")
        output.field("both apps' token", sharedToken, indent: "  ")
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

    /// `curl` with a token (the first app's unless given; none when `open`), the `Verdict-App`
    /// header when `app` is given, `-X` for writes, and a JSON body.
    private func curl(
        _ path: String, method: String = "GET", json: String? = nil, open: Bool = false, base: String? = nil,
        token: String? = nil, app: String? = nil
    ) -> String {
        var parts = ["curl -s"]
        if method != "GET" { parts.append("-X \(method)") }
        if !open { parts.append("-H 'Authorization: Bearer \(token ?? self.token)'") }
        if let app { parts.append("-H 'Verdict-App: \(app)'") }
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
                // The metrics count every app's work: only a token of every app reads them.
                let everyApp = operation.path == "/metrics"
                return Example(
                    title: title,
                    command: curl(path, method: operation.method, json: operation.body.flatMap { Self.json($0, values) }, open: operation.open,
                                  token: everyApp ? sharedToken : nil),
                    note: everyApp ? "with the token of both apps: the metrics count every app's work" : nil)
            })
        }
        return documented + secondApp + [
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

    /// The second app's examples, with the token of both apps: the operations about the app as a
    /// whole name it (`Verdict-App`); those naming a record by its id find the app through it.
    private var secondApp: [(String, [Example])] {
        guard let app = apps.dropFirst().first, let played = summary.cases.last(where: { $0.bundleId == app.bundleId }) else { return [] }
        var examples = [
            Example(title: "GET /v1/rules — \(app.name)'s rule bundle, catalog and messages",
                    command: curl("/v1/rules", token: sharedToken, app: app.bundleId),
                    note: "without the header this token gets 400 APP_REQUIRED: it acts for several apps"),
            Example(title: "GET /v1/rules/stats — \(app.name)'s decisions per rule",
                    command: curl("/v1/rules/stats", token: sharedToken, app: app.bundleId)),
            Example(title: "GET /v1/subscriptions/{originalTransactionId}/offer — found through the subscription: no header",
                    command: curl("/v1/subscriptions/\(played.originalTransactionId)/offer", token: sharedToken)),
        ]
        if let decisionId = played.decisionId {
            examples.append(Example(
                title: "GET /v1/decisions/{decisionId} — found through the decision: no header",
                command: curl("/v1/decisions/\(decisionId)", token: sharedToken),
                note: "\(apps[0].name)'s token gets 404 here: another app's decision is answered as an absent one"))
        }
        if let offerId = played.offerId {
            let body = #"{"offerId":"\#(offerId)","productId":"\#(played.productId)","transactionId":"\#(played.transactionId)"}"#
            examples.append(Example(
                title: "POST /v1/offers/signatures — \(offerId) signed with \(app.name)'s key",
                command: curl("/v1/offers/signatures", method: "POST", json: body, token: sharedToken, app: app.bundleId)))
        }
        examples.append(Example(
            title: "a new \(app.name) subscriber in the simulator (?bundleId= names the app; without it, the first app)",
            command: curl("/simulator/scenarios/subscribe?bundleId=\(app.bundleId)", method: "POST",
                          json: #"{"productId":"\#(played.productId)","price":69990,"currency":"USD","period":"P1Y"}"#,
                          open: true, base: simulatorURL)))
        return [("\(app.label) with the token of both apps: an operation about one app names it with Verdict-App", examples)]
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

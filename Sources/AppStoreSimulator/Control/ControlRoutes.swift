import AppStoreServer
import AppStoreServerHTTP
import Foundation
import Hummingbird

/// The simulator's control API, served next to the App Store Server API. No authentication
/// (it is a local test tool); JSON in and out; dates are integer milliseconds since 1970;
/// errors are `{"error":"…"}` with 400 (bad request/state) or 404 (unknown id).
///
/// Several apps: every route about one app's state — inspection, delivery, scenarios — acts for
/// the server's first app, or for the app named by the `bundleId` query parameter
/// (`POST /simulator/scenarios/subscribe?bundleId=com.example.other`); a `bundleId` no app has
/// answers 404 `{"error":"unknown app …"}`. The clock, token clock, rate limits, faults, root
/// certificate and PKI are shared by every app: their routes take no `bundleId`.
///
/// Inspection
/// - `GET  /simulator` — overview: bundleId, appAppleId, bundleVersion, environment, keyId,
///   issuerId, baseURL, now, clockFrozen, deliveryURL, retryPolicy, tokenClock, apps (every
///   served bundle id, the default app first).
/// - `GET  /simulator/apps` — every app, the default first: [{bundleId, appAppleId, environment,
///   keyId, issuerId, deliveryURL}].
/// - `GET  /simulator/key` — the issued In-App Purchase key: keyId, issuerId, bundleId, fileName
///   (`SubscriptionKey_<KEYID>.p8`), privateKeyPEM (PKCS#8; a local test key).
/// - `GET  /simulator/root-certificate` — `{"rootCertificateDER":"<standard Base64>"}`: the root
///   a verifier must trust for the simulator's signatures.
/// - `GET  /simulator/notifications` — the notification log, oldest first: notificationUUID,
///   notificationType, subtype, signedPayload, payload (decoded), signedDate, transactionId,
///   originalTransactionId, appTransactionId, sendAttempts [{attemptDate, sendAttemptResult,
///   httpStatus, url}], isRetryPending.
/// - `GET  /simulator/notifications/{notificationUUID}` — one entry of the log.
/// - `GET  /simulator/consumption-requests` — every accepted Send Consumption Information body:
///   [{transactionId, request, rawBody, receivedDate}].
/// - `GET  /simulator/consumption-requests/rejected` — every body the endpoint rejected with an
///   Apple error: [{transactionId, rawBody, httpStatus, errorCode, errorMessage, receivedDate}].
/// - `GET  /simulator/consumption-requests/v1` — every accepted Send Consumption Information V1
///   body: [{transactionId, rawBody, receivedDate}].
/// - `GET  /simulator/customers` — [{appTransactionId, appAccountToken}].
/// - `GET  /simulator/transactions/{transactionId}` — the stored (decoded) transaction.
/// - `GET  /simulator/subscriptions/{originalTransactionId}` — status, renewalInfo, latestTransaction,
///   memberOriginalTransactionIds (a multiseat group's `ASSIGNED` members).
///
/// Configuration
/// - `GET|PUT /simulator/delivery` — `{"url":"http://…"|null, "retryPolicy":{"mode":
///   "followEnvironment"|"always"|"never", "retryIntervals":[seconds…], "timeScale":n,
///   "requestTimeout":seconds}}`; PUT changes only the members given (`"url":null` clears the URL).
/// - `GET|PUT /simulator/clock` — `{"now":ms, "frozen":bool}`; PUT `now` freezes the clock there,
///   `"frozen":false` lets it run again.
/// - `POST /simulator/clock/advance` — `{"seconds":n}` → `{"now":ms,"frozen":bool}`.
/// - `PUT  /simulator/token-clock` — `{"tokenClock":"simulated"|"wall"}`: the clock API tokens'
///   `exp`/`iat` are checked against.
/// - `GET  /simulator/rate-limits` — `{"<endpoint>":{"limit":n,"windowSeconds":s}}`.
/// - `PUT  /simulator/rate-limits/{endpoint}` — `{"limit":n,"windowSeconds":s}` (window defaults to 3600).
/// - `DELETE /simulator/rate-limits/{endpoint}`, `DELETE /simulator/rate-limits` — remove limits.
///   Endpoints: getTransactionInfo, getTransactionHistory, getAllSubscriptionStatuses,
///   getRefundHistory, sendConsumptionInformation, getNotificationHistory,
///   requestTestNotification, getTestNotificationStatus.
/// - `GET  /simulator/faults` — faults still in force.
/// - `POST /simulator/faults` — add `{"kind":"error"|"latency"|"dropConnection", "endpoint":…|null
///   (all), "count":n|null (until cleared, default 1), "status":500, "errorCode":5000001|null (no
///   body), "errorMessage":"…", "latencyMilliseconds":n, "retryAfterMilliseconds":n|null (an
///   error's `Retry-After`: UNIX milliseconds this long after the wall-clock now)}`; e.g. a rate
///   limit: `{"kind":"error","status":429,"errorCode":4290000,"errorMessage":"Rate limit
///   exceeded.","retryAfterMilliseconds":1500}`.
/// - `DELETE /simulator/faults` — clear all faults.
///
/// Scenarios (each answers `{"notification":{…log entry…}, "transaction":{…}, "renewalInfo":{…}}`)
/// - `POST /simulator/scenarios/subscribe` — `{"productId", "subscriptionGroupIdentifier"?,
///   "price"? (milliunits), "currency"?, "storefront"?, "period"? ("P1M"), "offer"? {"type":1–4,
///   "discountType":"FREE_TRIAL"|"PAY_AS_YOU_GO"|"PAY_UP_FRONT", "identifier"?, "price"?,
///   "period"?, "periodCount"?}, "appAccountToken"?, "appTransactionId"? (existing customer),
///   "inAppOwnershipType"?, "seats"? (a multiseat purchase), "seatPricing"? {"tiers":[{"firstSeat",
///   "price"}…]}, "invitationManagement"? ("APPLE"|"DEVELOPER"), "billingPlanType"? ("MONTHLY"),
///   "commitmentBillingPeriods"? (12)}` → SUBSCRIBED/INITIAL_BUY.
/// - `POST /simulator/scenarios/renew` — `{"originalTransactionId", "price"?}` → DID_RENEW.
/// - `POST /simulator/scenarios/auto-renew` — `{"originalTransactionId", "enabled":bool}` →
///   DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_ENABLED|AUTO_RENEW_DISABLED.
/// - `POST /simulator/scenarios/fail-renewal` — `{"originalTransactionId", "gracePeriod"?}` → DID_FAIL_TO_RENEW.
/// - `POST /simulator/scenarios/expire` — `{"originalTransactionId", "subtype"? ("VOLUNTARY"…),
///   "eligibleWinBackOfferIds"?}` → EXPIRED.
/// - `POST /simulator/scenarios/resubscribe` — `{"originalTransactionId", "productId"?, "price"?,
///   "offer"?}` → SUBSCRIBED/RESUBSCRIBE.
/// - `POST /simulator/scenarios/redeem-offer` — `{"originalTransactionId", "offer"}` →
///   OFFER_REDEEMED (active) or SUBSCRIBED/RESUBSCRIBE (expired).
/// - `POST /simulator/scenarios/change-product` — `{"originalTransactionId", "productId", "upgrade"?}` →
///   DID_CHANGE_RENEWAL_PREF/DOWNGRADE (from the next renewal) or UPGRADE (a new period now).
/// - `POST /simulator/scenarios/purchase` — `{"productId", "type"? ("Consumable"|"Non-Consumable"|
///   "Non-Renewing Subscription"), "price"?, "currency"?, "storefront"?, "quantity"?,
///   "appAccountToken"?, "appTransactionId"?, "inAppOwnershipType"?}` → ONE_TIME_CHARGE.
/// - `POST /simulator/scenarios/refund-request` — `{"transactionId", "reason"?
///   ("UNINTENDED_PURCHASE"…)}` → CONSUMPTION_REQUEST.
/// - `POST /simulator/scenarios/refund-grant` — `{"transactionId", "reason"? (0|1), "type"?
///   ("REFUND_FULL"|"REFUND_PRORATED"), "percentage"? (milliunits)}` → REFUND.
/// - `POST /simulator/scenarios/refund-decline` — `{"transactionId"}` → REFUND_DECLINED.
/// - `POST /simulator/scenarios/refund-reverse` — `{"transactionId"}` → REFUND_REVERSED.
/// - `POST /simulator/scenarios/test-notification` — → `{"testNotificationToken", "notification"}` (TEST).
/// - Multiseat scenarios (`add-seats`, `reduce-seats`, `refund-seats`, `assign-member`,
///   `revoke-member`, `unclaim-seats`): see `ControlRoutes+Seats.swift`.
/// - `POST /simulator/scenarios/view-subscription` — `{"originalTransactionId", "userLocale"?}` →
///   a signed realtime request posted to the realtime URL: `{"realtimeURL", "requestIdentifier",
///   "status", "milliseconds", "answer", "failure"}` (409 without a realtime URL).
struct ControlRoutes: Sendable {
    let server: SimulatorServer

    func register(on router: Router<SimulatorRequestContext>) {
        registerInspection(on: router)
        registerConfiguration(on: router)
        registerScenarios(on: router)
        registerSeatScenarios(on: router)
    }

    private func registerInspection(on router: Router<SimulatorRequestContext>) {
        router.get("/simulator", use: forApp { app, _, _ in await overview(app) })
        router.get("/simulator/apps") { _, _ in
            var apps: [ControlMessages.App] = []
            for app in server.apps { apps.append(await summary(app)) }
            return JSONResponse.make(apps)
        }
        router.get("/simulator/key", use: forApp { app, _, _ in
            let key = app.store.issuedKey
            return JSONResponse.make(ControlMessages.Key(
                keyId: key.keyId, issuerId: key.issuerId, bundleId: app.bundleId,
                fileName: key.fileName, privateKeyPEM: key.pemRepresentation))
        })
        router.get("/simulator/root-certificate") { _, _ in
            JSONResponse.make(ControlMessages.RootCertificate(
                rootCertificateDER: server.store.pki.rootCertificateDER.base64EncodedString()))
        }
        router.get("/simulator/notifications", use: forApp { app, _, _ in
            JSONResponse.make(await app.store.notificationLog())
        })
        router.get("/simulator/notifications/{uuid}", use: forApp { app, _, context in
            guard let notification = await app.store.notification(uuid: context.parameters.get("uuid") ?? "") else {
                return failure(404, "unknown notification")
            }
            return JSONResponse.make(notification)
        })
        router.get("/simulator/consumption-requests", use: forApp { app, _, _ in
            JSONResponse.make(await app.store.receivedConsumptionInformation())
        })
        router.get("/simulator/consumption-requests/rejected", use: forApp { app, _, _ in
            JSONResponse.make(await app.store.rejectedConsumptionInformation())
        })
        router.get("/simulator/consumption-requests/v1", use: forApp { app, _, _ in
            JSONResponse.make(await app.store.receivedConsumptionInformationV1())
        })
        router.get("/simulator/customers", use: forApp { app, _, _ in JSONResponse.make(await app.store.allCustomers()) })
        router.get("/simulator/transactions/{transactionId}", use: forApp { app, _, context in
            guard let transaction = await app.store.transaction(id: context.parameters.get("transactionId") ?? "") else {
                return failure(404, "unknown transaction")
            }
            return JSONResponse.make(transaction)
        })
        router.get("/simulator/subscriptions/{originalTransactionId}", use: forApp { app, _, context in
            let id = context.parameters.get("originalTransactionId") ?? ""
            let store = app.store
            guard let status = await store.status(originalTransactionId: id) else {
                return failure(404, "unknown subscription")
            }
            return JSONResponse.make(ControlMessages.Subscription(
                originalTransactionId: id, status: status,
                renewalInfo: await store.renewalInfo(originalTransactionId: id),
                latestTransaction: await store.latestTransaction(originalTransactionId: id),
                memberOriginalTransactionIds: await store.memberOriginalTransactionIds(purchaserOriginalTransactionId: id)))
        })
    }

    private func overview(_ app: SimulatorApp) async -> Response {
        let store = app.store
        let configuration = store.configuration
        return JSONResponse.make(ControlMessages.Overview(
            bundleId: configuration.bundleId, appAppleId: configuration.appAppleId,
            bundleVersion: configuration.bundleVersion, environment: configuration.environment,
            keyId: store.issuedKey.keyId, issuerId: store.issuedKey.issuerId,
            baseURL: server.baseURL?.absoluteString, now: store.now, clockFrozen: store.clock.isFrozen,
            deliveryURL: await app.deliverer.deliveryURL?.absoluteString,
            retryPolicy: await app.deliverer.retryPolicy, tokenClock: server.tokenClock,
            apps: server.apps.map(\.bundleId)))
    }

    private func summary(_ app: SimulatorApp) async -> ControlMessages.App {
        ControlMessages.App(
            bundleId: app.bundleId, appAppleId: app.appAppleId, environment: app.store.configuration.environment,
            keyId: app.store.issuedKey.keyId, issuerId: app.store.issuedKey.issuerId,
            deliveryURL: await app.deliverer.deliveryURL?.absoluteString)
    }

    // MARK: - Scenarios

    private func registerScenarios(on router: Router<SimulatorRequestContext>) {
        scenario(router, "subscribe") { (store, body: SubscribeRequest) in try await store.subscribe(body) }
        scenario(router, "renew") { (store, body: ControlMessages.Renew) in
            try await store.renew(originalTransactionId: body.originalTransactionId, price: body.price)
        }
        scenario(router, "auto-renew") { (store, body: ControlMessages.AutoRenew) in
            try await store.setAutoRenew(originalTransactionId: body.originalTransactionId, enabled: body.enabled)
        }
        scenario(router, "fail-renewal") { (store, body: ControlMessages.FailRenewal) in
            try await store.failRenewal(originalTransactionId: body.originalTransactionId, gracePeriod: body.gracePeriod)
        }
        scenario(router, "expire") { (store, body: ControlMessages.Expire) in
            try await store.expire(originalTransactionId: body.originalTransactionId, subtype: body.subtype ?? .voluntary,
                                   eligibleWinBackOfferIds: body.eligibleWinBackOfferIds)
        }
        scenario(router, "resubscribe") { (store, body: ControlMessages.Resubscribe) in
            try await store.resubscribe(originalTransactionId: body.originalTransactionId, productId: body.productId,
                                        price: body.price, offer: body.offer)
        }
        scenario(router, "redeem-offer") { (store, body: ControlMessages.RedeemOffer) in
            try await store.redeemOffer(originalTransactionId: body.originalTransactionId, offer: body.offer)
        }
        scenario(router, "change-product") { (store, body: ControlMessages.ChangeProduct) in
            try await store.changeProduct(originalTransactionId: body.originalTransactionId, productId: body.productId,
                                          upgrade: body.upgrade ?? false)
        }
        scenario(router, "purchase") { (store, body: OneTimePurchaseRequest) in try await store.purchase(body) }
        scenario(router, "refund-request") { (store, body: ControlMessages.RefundRequest) in
            try await store.requestRefund(transactionId: body.transactionId, reason: body.reason ?? .unintendedPurchase)
        }
        scenario(router, "refund-grant") { (store, body: ControlMessages.RefundGrant) in
            try await store.grantRefund(transactionId: body.transactionId, reason: body.reason ?? .refundedForOtherReason,
                                        type: body.type ?? .refundFull, percentage: body.percentage)
        }
        scenario(router, "refund-decline") { (store, body: ControlMessages.TransactionReference) in
            try await store.declineRefund(transactionId: body.transactionId)
        }
        scenario(router, "refund-reverse") { (store, body: ControlMessages.TransactionReference) in
            try await store.reverseRefund(transactionId: body.transactionId)
        }
        // The customer opens the subscription in the App Store's settings: the App Store asks the
        // realtime URL (set through the Retention Messaging API) what to show.
        router.post("/simulator/scenarios/view-subscription", use: forApp { app, request, _ in
            try await run {
                let body: ControlMessages.ViewSubscription = try await decode(request)
                guard let url = await app.store.realtimeURL() else {
                    return failure(409, "no realtime URL is set (PUT /inApps/v1/messaging/realtime/url)")
                }
                let call = try await RealtimeCaller(store: app.store, httpClient: .untraced).call(
                    originalTransactionId: body.originalTransactionId, userLocale: body.userLocale ?? "en-US", url: url,
                    threshold: SimulatedPerformanceTest.defaultConfig.responseTimeThreshold ?? 700, timeout: 30_000)
                return JSONResponse.make(call)
            }
        })
        router.post("/simulator/scenarios/test-notification", use: forApp { app, _, _ in
            try await run {
                let sent = try await app.store.sendTestNotification()
                return JSONResponse.make(ControlMessages.TestNotification(
                    testNotificationToken: sent.token, notification: sent.notification))
            }
        })
    }

    /// Registers `POST /simulator/scenarios/<name>`: `operation` runs on the selected app's store
    /// with the decoded body.
    func scenario<Body: Decodable & Sendable>(
        _ router: Router<SimulatorRequestContext>, _ name: String,
        _ operation: @escaping @Sendable (SimulatorStore, Body) async throws -> ScenarioResult
    ) {
        router.post("/simulator/scenarios/\(name)", use: forApp { app, request, _ in
            try await run {
                let body: Body = try await decode(request)
                return JSONResponse.make(try await operation(app.store, body))
            }
        })
    }

    // MARK: - Helpers

    typealias Handler = @Sendable (Request, SimulatorRequestContext) async throws -> Response

    /// A handler acting for the app the request selects: the one its `bundleId` query parameter
    /// names, else the first; 404 when no app has that bundle id.
    func forApp(
        _ handler: @escaping @Sendable (SimulatorApp, Request, SimulatorRequestContext) async throws -> Response
    ) -> Handler {
        { [server] request, context in
            guard let bundleId = request.uri.queryParameters.get("bundleId") else {
                return try await handler(server.apps[0], request, context)
            }
            guard let app = server.app(bundleId: String(bundleId)) else {
                return failure(404, "unknown app \(bundleId) (served: \(server.apps.map(\.bundleId).joined(separator: ", ")))")
            }
            return try await handler(app, request, context)
        }
    }

    func decode<Body: Decodable>(_ request: Request) async throws -> Body {
        let data = try await request.collectBody()
        do {
            return try AppStoreJSON.decoder().decode(Body.self, from: data.isEmpty ? Data("{}".utf8) : data)
        } catch {
            throw SimulatorError.invalidRequest("the body is not valid \(Body.self) JSON: \(error)")
        }
    }

    /// Runs a control operation, mapping ``SimulatorError`` to 400/404.
    func run(_ operation: () async throws -> Response) async throws -> Response {
        do {
            return try await operation()
        } catch let error as SimulatorError {
            switch error {
            case .unknownTransaction, .unknownSubscription, .unknownCustomer:
                return failure(404, error.description)
            case .invalidState, .invalidRequest:
                return failure(400, error.description)
            }
        }
    }

    func failure(_ status: Int, _ message: String) -> Response {
        JSONResponse.make(status: status, ControlMessages.Failure(error: message))
    }
}

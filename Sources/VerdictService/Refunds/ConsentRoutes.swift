import AppStoreServer
import Foundation
import Hummingbird
import VerdictStorage
import VerdictRequests

/// The consent ledger for app backends (bearer token), recorded for an app account token or — for
/// purchases made without one — for a subscription or purchase chain:
/// - `PUT /v1/customers/{appAccountToken}/consent` and `PUT /v1/subscriptions/{originalTransactionId}/consent`
///   `{"consented": bool, "at", "source", "termsVersion"}` append the customer's answer (`at`
///   defaults to now; history is kept, nothing is overwritten);
/// - `GET` on the same paths: the current answer and the history, newest first.
///
/// A refund request reads the entries of its purchase's token and of its originalTransactionId
/// (all its renewals) together; the newest answer wins. Verdict sends consumption information only
/// when that answer consents (or, without any entry, when the app assumes consent: `assumeConsent`,
/// `VERDICT_ASSUME_CONSENT=true`).
///
/// Ledgers are the app's own: a token's ledger is the request's one app's
/// (``RequestApps/single()``); a subscription's is the ledger of the app that stores the
/// subscription or already holds answers for it, else the request's one app's — an answer may be
/// recorded before Apple's first notification about the purchase (``RequestApps/owner(_:)``).
struct ConsentRoutes {
    let now: @Sendable () -> Date
    /// At most this many entries are listed.
    static let historyLimit = 100

    func register(on router: some RouterMethods<ServiceRequestContext>) {
        router.put("/v1/customers/{appAccountToken}/consent") { request, context in
            let entry = try await entry(request, context, for: .appAccountToken(try context.appAccountToken()))
            return try await record(entry, in: try context.apps.single())
        }
        router.get("/v1/customers/{appAccountToken}/consent") { _, context in
            try await view(.appAccountToken(try context.appAccountToken()), in: try context.apps.single())
        }
        router.put("/v1/subscriptions/{originalTransactionId}/consent") { request, context in
            let originalTransactionId = try context.originalTransactionId()
            let entry = try await entry(request, context, for: .originalTransactionId(originalTransactionId))
            return try await record(entry, in: try await owner(of: originalTransactionId, context.apps))
        }
        router.get("/v1/subscriptions/{originalTransactionId}/consent") { _, context in
            let originalTransactionId = try context.originalTransactionId()
            return try await view(.originalTransactionId(originalTransactionId), in: try await owner(of: originalTransactionId, context.apps))
        }
    }

    /// The app whose ledger holds the subscription's answers.
    private func owner(of originalTransactionId: String, _ apps: RequestApps) async throws -> AppContext {
        let key = ConsentKey.originalTransactionId(originalTransactionId)
        return try await apps.owner { app in
            if try await app.holdsSubscription(originalTransactionId) { return true }
            return try await !app.repository.consents(keys: [key], limit: 1).isEmpty
        }
    }

    /// The entry a PUT's body records (checked before any app is asked).
    private func entry(_ request: Request, _ context: ServiceRequestContext, for key: ConsentKey) async throws -> ConsentRecord {
        let body = try await request.decode(as: ConsentRequest.self, context: context)
        let recordedAt = now().appStoreMilliseconds
        let at = body.at ?? recordedAt
        guard at > 0, at <= recordedAt + 300_000 else {
            throw ServiceError.unprocessable("INVALID_FIELD", "'at' must be a past time (UNIX milliseconds or ISO 8601)")
        }
        return ConsentRecord(
            key: key, consented: body.consented, at: at, source: body.source, termsVersion: body.termsVersion,
            recordedAt: recordedAt)
    }

    private func record(_ entry: ConsentRecord, in app: AppContext) async throws -> Response {
        try await app.repository.recordConsent(entry)
        return try await view(entry.key, in: app)
    }

    private func view(_ key: ConsentKey, in app: AppContext) async throws -> Response {
        let history = try await app.repository.consents(keys: [key], limit: Self.historyLimit)
        let basis = ConsumptionRequestRecord.ConsentBasis.basis(newest: history.first, assumeConsent: app.configuration.assumeConsent)
        return try JSONBody.response(LedgerView(
            appAccountToken: key.appAccountToken, originalTransactionId: key.originalTransactionId,
            current: ConsentView(basis: basis, entry: history.first),
            history: history.map { ConsentView(basis: .basis(newest: $0, assumeConsent: false), entry: $0) }))
    }

    /// The response body: the key the ledger was asked for, the current answer and the history.
    struct LedgerView: Encodable {
        var appAccountToken: String?
        var originalTransactionId: String?
        /// What a refund request decided now would rely on.
        var current: ConsentView
        var history: [ConsentView]
    }
}

import HTTPTypes
import Hummingbird

/// The apps one API request may act for — the one place where the app scope and the token's apps
/// are applied (``BearerTokenMiddleware`` computes it; routes and console pages reach apps only
/// through it).
///
/// - Records named by an id (originalTransactionId, transactionId, decision id, notification
///   UUID) are found through the record: ``locate(_:)`` asks each app the request may act for.
/// - Operations about an app as a whole, or keyed by an appAccountToken (which only the app gives
///   meaning), act for ``single()``: the token's only app, or the one the `Verdict-App` header
///   names; a token of several apps without the header gets 400 `APP_REQUIRED`.
///
/// A resource of another app answers exactly as an absent one: the other app is never asked.
public struct RequestApps: Sendable {
    /// The header naming the app a request acts for (a bundle id).
    public static let header = "Verdict-App"
    static let headerName = HTTPField.Name(header)!

    /// The apps this request may act for, in configuration order (never empty).
    public let apps: [AppContext]
    /// Whether the token acts for every configured app (whatever the header narrowed ``apps`` to):
    /// what the service-wide views (`/metrics`) require.
    public let grantsEveryApp: Bool

    /// The apps of a token that acts for `grant` (nil: every app), narrowed to the one `named`
    /// (the header's value) when there is one; 404 when the token does not act for it.
    init(_ directory: AppDirectory, grant: Set<String>?, named: String?) throws {
        let granted = grant.map { grant in directory.all.filter { grant.contains($0.bundleId) } } ?? directory.all
        grantsEveryApp = granted.count == directory.all.count
        guard let named else {
            // A token's apps are checked against the configuration at start: never none.
            apps = granted
            return
        }
        guard let app = granted.first(where: { $0.bundleId == named }) else {
            throw ServiceError.notFound("no app \(named)")
        }
        apps = [app]
    }

    /// The one app the request acts for.
    public func single() throws -> AppContext {
        guard apps.count == 1 else {
            throw ServiceError.badRequest(
                "APP_REQUIRED",
                "this token acts for several apps: name one in the \(Self.header) header (\(apps.map(\.bundleId).joined(separator: ", ")))")
        }
        return apps[0]
    }

    /// The first app (in configuration order) for which `lookup` finds something, with it.
    public func locate<T: Sendable>(_ lookup: (AppContext) async throws -> T?) async throws -> (app: AppContext, found: T)? {
        for app in apps {
            if let found = try await lookup(app) { return (app, found) }
        }
        return nil
    }

    /// The app of the record `lookup` finds or, when no app the request may act for has it yet (a
    /// write that may come before Apple's notification does, e.g. a transaction's facts), the
    /// request's ``single()`` app.
    public func owner(_ lookup: (AppContext) async throws -> Bool) async throws -> AppContext {
        // One app: it is the owner whatever the lookup would find (no query).
        if apps.count == 1 { return apps[0] }
        for app in apps where try await lookup(app) { return app }
        return try single()
    }
}

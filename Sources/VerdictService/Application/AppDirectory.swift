import AppStoreServer
import Foundation

/// The contexts of every configured app, in configuration order, found by bundle id (the name of
/// an app in rows, tokens and the `Verdict-App` header) or App Apple ID.
public struct AppDirectory: Sendable {
    /// Every app, in configuration order (never empty).
    public let all: [AppContext]
    private let byBundleId: [String: AppContext]
    private let byAppAppleId: [Int64: AppContext]

    init(_ apps: [AppContext]) {
        precondition(!apps.isEmpty, "a service serves at least one app")
        all = apps
        byBundleId = Dictionary(apps.map { ($0.bundleId, $0) }, uniquingKeysWith: { first, _ in first })
        byAppAppleId = Dictionary(
            apps.compactMap { app in app.configuration.appAppleId.map { ($0, app) } }, uniquingKeysWith: { first, _ in first })
    }

    /// The first configured app: the only one of a single-app deployment.
    public var first: AppContext { all[0] }

    /// The app with `bundleId`, if configured.
    public func app(bundleId: String) -> AppContext? { byBundleId[bundleId] }

    /// The app a command acts for: the one `bundleId` names, or the only one configured when it
    /// names none (`--app` of the CLI commands).
    public func select(_ bundleId: String?) throws(AppSelectionError) -> AppContext {
        try AppSelectionError.select(bundleId, among: all, named: \.bundleId)
    }

    /// The app a notification names (its `data`, `summary`, … bundle id, read before verification).
    /// With one app, or when the payload names no configured app, the first app: its verifier
    /// then refuses what is not its own exactly as a single-app service does, after checking the
    /// signature — so an unsigned probe learns nothing about which apps are configured.
    func app(forNotification signedPayload: String) -> AppContext {
        guard all.count > 1, let payload = CompactJWS(signedPayload)?.payload,
              let decoded = try? AppStoreJSON.decoder().decode(ResponseBodyV2DecodedPayload.self, from: payload),
              let bundleId = decoded.appIdentity.bundleId, let app = byBundleId[bundleId]
        else { return first }
        return app
    }

    /// The app a Retention Messaging realtime request names (its `appAppleId`), and whether it
    /// names it (always, with one app); as for notifications, the first app when none matches,
    /// whose verifier checks the signature — but with several apps such a request is never
    /// answered, whatever the first app would say.
    func app(forRealtime signedPayload: String) -> (app: AppContext, named: Bool) {
        guard all.count > 1 else { return (first, true) }
        guard let payload = CompactJWS(signedPayload)?.payload,
              let decoded = try? AppStoreJSON.decoder().decode(DecodedRealtimeRequestBody.self, from: payload),
              let app = byAppAppleId[decoded.appAppleId]
        else { return (first, false) }
        return (app, true)
    }
}

/// Why no app was chosen for a command: its message says what to name.
public struct AppSelectionError: Error, Sendable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }

    /// The item of `items` (apps, or their settings) whose bundle id is `bundleId`, or the only one
    /// when `bundleId` is nil.
    public static func select<Item>(
        _ bundleId: String?, among items: [Item], named name: (Item) -> String
    ) throws(AppSelectionError) -> Item {
        let names = items.map(name).joined(separator: ", ")
        guard let bundleId else {
            guard items.count == 1 else { throw AppSelectionError("several apps are configured (\(names)): name one with --app") }
            return items[0]
        }
        guard let item = items.first(where: { name($0) == bundleId }) else {
            throw AppSelectionError("no app \(bundleId) is configured (\(names))")
        }
        return item
    }
}

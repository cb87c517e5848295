import Foundation

/// One app a ``SimulatorServer`` serves: its state (a ``SimulatorStore`` with the app's
/// configuration, issued In-App Purchase key, customers and subscriptions) and the
/// ``NotificationDeliverer`` that posts the app's notifications to the app's own URL.
///
/// App Store Server API requests reach the app their bearer token's `bid` names; control routes
/// reach it through `?bundleId=` (see `ControlRoutes`).
public struct SimulatorApp: Sendable {
    /// The app's state and scenarios.
    public let store: SimulatorStore
    /// Delivers the app's notifications (set its URL with ``NotificationDeliverer/setDeliveryURL(_:)``).
    public let deliverer: NotificationDeliverer

    /// The app of `store`, delivering with `deliverer` (a new one, sending nowhere until a URL is
    /// set, when nil).
    public init(store: SimulatorStore, deliverer: NotificationDeliverer? = nil) {
        self.store = store
        self.deliverer = deliverer ?? NotificationDeliverer(store: store)
    }

    /// The app's bundle identifier.
    public var bundleId: String { store.configuration.bundleId }

    /// The app's App Apple ID.
    public var appAppleId: Int64? { store.configuration.appAppleId }
}

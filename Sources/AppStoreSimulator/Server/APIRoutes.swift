import AppStoreServer
import Foundation
import Hummingbird

/// The App Store Server API handlers of one app (in extensions, one file per group of Apple's
/// endpoints); ``APIPipeline`` authenticates each request and hands it to the routes of the app
/// its token names.
struct APIRoutes: Sendable {
    /// The app's state.
    let store: SimulatorStore
    /// The app's notification deliverer (Request a Test Notification needs its URL).
    let deliverer: NotificationDeliverer

    /// The routes of `app`.
    init(app: SimulatorApp) {
        self.store = app.store
        self.deliverer = app.deliverer
    }

    // MARK: - Shared helpers

    /// The path's transaction id, which must be a positive decimal number (else 4000006).
    func pathTransactionId(_ context: SimulatorRequestContext, _ name: String = "transactionId") throws -> String {
        guard let id = context.parameters.get(name), !id.isEmpty, id.count <= 20,
              id.allSatisfy({ $0.isASCII && $0.isNumber })
        else { throw APIErrorResponse.invalidTransactionId }
        return id
    }

    /// The customer (app transaction id) a path id belongs to (else 4040010).
    func customer(for id: String) async throws -> String {
        guard let customer = await store.customerId(for: id) else { throw APIErrorResponse.transactionIdNotFound }
        return customer
    }
}

/// Opaque continuation tokens (`revision`, `paginationToken`): Base64URL of a tagged position.
enum ContinuationToken {
    static func encode(_ tag: String, _ position: String) -> String {
        Base64URL.encode(Data("\(tag).\(position)".utf8))
    }

    static func decode(_ tag: String, _ token: String) -> String? {
        guard let data = Base64URL.decode(token), let text = String(data: data, encoding: .utf8),
              text.hasPrefix(tag + ".")
        else { return nil }
        return String(text.dropFirst(tag.count + 1))
    }
}

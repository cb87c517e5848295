import AppStoreServer
import AppStoreServerHTTP
import AppStoreSimulator
import Foundation

/// A running simulator on 127.0.0.1 (port 0) with a real API client pointed at it. Use
/// ``withSimulator(environment:policy:_:)`` so the server is always stopped.
struct SimulatorHarness: Sendable {
    let server: SimulatorServer
    let store: SimulatorStore
    let baseURL: URL
    let client: AppStoreServerAPIClient
    let transport: AsyncHTTPClientTransport

    /// The harness of `store`'s app on `server` at `baseURL`: an API client signing with the app's key.
    init(server: SimulatorServer, store: SimulatorStore, baseURL: URL, transport: AsyncHTTPClientTransport) throws {
        self.server = server
        self.store = store
        self.baseURL = baseURL
        self.transport = transport
        self.client = try AppStoreServerAPIClient(
            signingKey: store.issuedKey.privateKey, keyId: store.issuedKey.keyId, issuerId: store.issuedKey.issuerId,
            bundleId: store.configuration.bundleId, environment: store.configuration.environment, baseURL: baseURL,
            transport: transport, clock: { [clock = store.clock] in clock.now })
    }

    /// A token minted by Verdict's own token code with the issued key, at simulated now.
    func bearer() throws -> String {
        try AppStoreAPIToken(
            privateKey: store.issuedKey.privateKey, keyId: store.issuedKey.keyId, issuerId: store.issuedKey.issuerId,
            bundleId: store.configuration.bundleId, clock: { [clock = store.clock] in clock.now }
        ).make()
    }

    /// Sends a raw request (for bodies and tokens the typed client will not produce).
    func raw(_ method: String, _ path: String, body: Data? = nil, bearer: String?) async throws -> AppStoreHTTPResponse {
        var headers: [(name: String, value: String)] = [("Accept", "application/json")]
        if let bearer { headers.append(("Authorization", "Bearer \(bearer)")) }
        if body != nil { headers.append(("Content-Type", "application/json")) }
        return try await transport.send(AppStoreHTTPRequest(
            method: method, url: URL(string: baseURL.absoluteString + path)!, headers: headers, body: body))
    }

    /// A consumable purchase for a new customer; returns its transaction id.
    func buyConsumable(price: Int64 = 990) async throws -> String {
        try await store.purchase(OneTimePurchaseRequest(productId: "com.example.coins", price: price)).transactionId!
    }
}

/// Runs `body` against a fresh simulator whose clock is frozen at a whole second near now.
func withSimulator<T: Sendable>(
    environment: AppStoreEnvironment = .sandbox,
    policy: DeliveryRetryPolicy = DeliveryRetryPolicy(),
    _ body: (SimulatorHarness) async throws -> T
) async throws -> T {
    let clock = SimulatorClock(frozenAt: Date(appStoreMilliseconds: Date().appStoreMilliseconds / 1000 * 1000))
    let store = SimulatorStore(
        configuration: SimulatorAppConfiguration(bundleId: "com.example.verdict", appAppleId: 1_234_567_890,
                                                 environment: environment),
        pki: try SimulatorPKI(), clock: clock)
    let deliverer = NotificationDeliverer(store: store, policy: policy)
    let server = await SimulatorServer(store: store, deliverer: deliverer)
    let port = try await server.start()
    let baseURL = URL(string: "http://127.0.0.1:\(port)")!
    let harness = try SimulatorHarness(server: server, store: store, baseURL: baseURL, transport: AsyncHTTPClientTransport())
    do {
        let result = try await body(harness)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// Captures the typed failure of an API call.
func apiFailure(_ call: () async throws -> Void) async -> AppStoreAPIFailure? {
    do {
        try await call()
        return nil
    } catch let failure as AppStoreAPIFailure {
        return failure
    } catch {
        return nil
    }
}

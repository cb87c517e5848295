import AppStoreServer
import AppStoreServerHTTP
import AppStoreSimulator
import Foundation

/// Two apps served by one running simulator: each a ``SimulatorHarness`` (its own store, issued
/// key and API client) on the same server, PKI and clock. Use ``withTwoApps(environment:_:)``.
struct TwoAppSimulator: Sendable {
    /// The first app (`com.example.alpha`, App Apple ID 1111111111): the control API's default.
    let a: SimulatorHarness
    /// The second app (`com.example.beta`, App Apple ID 2222222222).
    let b: SimulatorHarness

    var server: SimulatorServer { a.server }

    /// A verifier accepting payloads for `bundleId` / `appAppleId` signed by the simulator's PKI.
    func verifier(bundleId: String, appAppleId: Int64, environment: AppStoreEnvironment) throws -> SignedDataVerifier {
        try SignedDataVerifier(rootCertificates: [a.store.pki.rootCertificateDER], bundleId: bundleId,
                               appAppleId: appAppleId, environments: [environment])
    }

    /// A verifier configured for the app of `harness`.
    func verifier(for harness: SimulatorHarness) throws -> SignedDataVerifier {
        let configuration = harness.store.configuration
        return try verifier(bundleId: configuration.bundleId, appAppleId: configuration.appAppleId!,
                            environment: configuration.environment)
    }
}

/// Runs `body` against a fresh two-app simulator (the `SimulatorServer(stores:)` form) whose clock
/// is frozen at a whole second near now.
func withTwoApps<T: Sendable>(
    environment: AppStoreEnvironment = .production,
    _ body: (TwoAppSimulator) async throws -> T
) async throws -> T {
    let clock = SimulatorClock(frozenAt: Date(appStoreMilliseconds: Date().appStoreMilliseconds / 1000 * 1000))
    let pki = try SimulatorPKI()
    let stores = [("com.example.alpha", Int64(1_111_111_111)), ("com.example.beta", 2_222_222_222)].map {
        SimulatorStore(configuration: SimulatorAppConfiguration(bundleId: $0.0, appAppleId: $0.1, environment: environment),
                       pki: pki, clock: clock)
    }
    let server = await SimulatorServer(stores: stores)
    let port = try await server.start()
    let baseURL = URL(string: "http://127.0.0.1:\(port)")!
    let transport = AsyncHTTPClientTransport()
    do {
        let apps = TwoAppSimulator(
            a: try SimulatorHarness(server: server, store: stores[0], baseURL: baseURL, transport: transport),
            b: try SimulatorHarness(server: server, store: stores[1], baseURL: baseURL, transport: transport))
        let result = try await body(apps)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

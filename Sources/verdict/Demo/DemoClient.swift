import AppStoreServer
import AppStoreServerHTTP
import AsyncHTTPClient
import Foundation
import NIOCore

/// The HTTP calls `verdict demo` makes, over loopback with the untraced AsyncHTTPClient: to the
/// Verdict service as an app backend would (bearer token), and to the simulator's control API.
/// Also the waits the scenario needs: until a notification is processed, until a consumption
/// request record leaves `pending`, until Apple's outcome is on it.
struct DemoClient: Sendable {
    /// The request methods the demo uses.
    enum Method: String, Sendable {
        case GET, PUT, POST
    }

    /// `http://127.0.0.1:<port>` of the Verdict service.
    let serviceURL: String
    /// `http://127.0.0.1:<port>` of the App Store simulator.
    let simulatorURL: String
    /// A bearer token the service accepts.
    let token: String
    /// How long a wait may take before the demo gives up.
    var patience: Duration = .seconds(30)

    /// Sends one request; returns the status and the body.
    func send(_ method: Method, _ url: String, json: String? = nil, bearer: String? = nil) async throws -> (status: Int, body: Data) {
        var request = HTTPClientRequest(url: url)
        switch method {
        case .GET: request.method = .GET
        case .PUT: request.method = .PUT
        case .POST: request.method = .POST
        }
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(string: json))
        }
        let response = try await HTTPClient.untraced.execute(request, timeout: .seconds(30))
        let buffer = try await response.body.collect(upTo: 8 * 1024 * 1024)
        return (Int(response.status.code), Data(buffer.readableBytesView))
    }

    /// A call to the service with the bearer token that must answer 2xx with a JSON object.
    @discardableResult
    func service(_ method: Method, _ path: String, json: String? = nil) async throws -> [String: JSONValue] {
        let (status, body) = try await send(method, serviceURL + path, json: json, bearer: token)
        guard (200..<300).contains(status) else {
            throw DemoError("\(method.rawValue) \(path) answered \(status): \(String(decoding: body.prefix(500), as: UTF8.self))")
        }
        guard let object = JSONValue.parse(body)?.objectValue else {
            throw DemoError("\(method.rawValue) \(path) did not answer a JSON object")
        }
        return object
    }

    /// Calls the simulator's control API; the JSON object it answers (2xx), else an error.
    func simulator(_ method: Method, _ path: String, json: String? = nil) async throws -> [String: JSONValue] {
        let (status, body) = try await send(method, simulatorURL + path, json: json)
        guard (200..<300).contains(status), let object = JSONValue.parse(body)?.objectValue else {
            throw DemoError("the simulator's \(method.rawValue) \(path) answered \(status): \(String(decoding: body.prefix(500), as: UTF8.self))")
        }
        return object
    }

    /// Polls `GET /v1/notifications/{uuid}` until the service has processed the notification
    /// (its state is no longer `received`); a notification that failed is an error.
    @discardableResult
    func waitUntilProcessed(_ uuid: String) async throws -> [String: JSONValue] {
        try await poll("notification \(uuid) to be processed") {
            let (status, body) = try await send(.GET, serviceURL + "/v1/notifications/\(uuid)", bearer: token)
            guard status == 200, let object = JSONValue.parse(body)?.objectValue,
                  let state = object["state"]?.stringValue, state != "received" else { return nil }
            if state == "failed" {
                throw DemoError("the service failed to process notification \(uuid): \(object["lastError"]?.stringValue ?? "no error text")")
            }
            return object
        }
    }

    /// Polls `GET /v1/consumption/{transactionId}` until the record is no longer `pending` (the
    /// submission to Apple runs as a background job).
    func settledConsumption(_ transactionId: String) async throws -> [String: JSONValue] {
        try await poll("the refund answer for transaction \(transactionId) to be settled") {
            let (status, body) = try await send(.GET, serviceURL + "/v1/consumption/\(transactionId)", bearer: token)
            guard status == 200, let object = JSONValue.parse(body)?.objectValue,
                  let state = object["state"]?.stringValue, state != "pending" else { return nil }
            return object
        }
    }

    /// Polls `GET /v1/consumption/{transactionId}` until Apple's outcome is recorded on it.
    func consumptionWithOutcome(_ transactionId: String) async throws -> [String: JSONValue] {
        try await poll("Apple's outcome on transaction \(transactionId)") {
            let object = try await service(.GET, "/v1/consumption/\(transactionId)")
            guard let outcome = object["outcome"]?.stringValue, !outcome.isEmpty else { return nil }
            return object
        }
    }

    /// The exact bodies the simulated App Store accepted for a transaction (control API
    /// `GET /simulator/consumption-requests`), oldest first.
    func bodiesAppleReceived(transactionId: String) async throws -> [String] {
        let (status, body) = try await send(.GET, simulatorURL + "/simulator/consumption-requests")
        guard status == 200, let entries = JSONValue.parse(body)?.arrayValue else {
            throw DemoError("GET /simulator/consumption-requests answered \(status)")
        }
        return entries.compactMap(\.objectValue)
            .filter { $0["transactionId"]?.stringValue == transactionId }
            .compactMap { $0["rawBody"]?.stringValue }
    }

    /// Calls `attempt` every 50 ms until it returns a value; gives up after ``patience``.
    private func poll<T: Sendable>(_ what: String, _ attempt: () async throws -> T?) async throws -> T {
        let deadline = ContinuousClock.now + patience
        while true {
            if let value = try await attempt() { return value }
            guard ContinuousClock.now < deadline else { throw DemoError("gave up waiting for \(what)") }
            try await Task.sleep(for: .milliseconds(50))
        }
    }
}

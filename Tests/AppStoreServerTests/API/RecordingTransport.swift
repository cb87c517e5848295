import AppStoreServer
import Foundation

/// An in-test ``AppStoreHTTPTransport`` that records every request and answers with canned
/// responses (one per call, the last one repeating), or throws a canned error.
final class RecordingTransport: AppStoreHTTPTransport, @unchecked Sendable {
    enum Reply {
        case response(AppStoreHTTPResponse)
        case failure(any Error)
    }

    private let lock = NSLock()
    private var replies: [Reply]
    private var recorded: [AppStoreHTTPRequest] = []

    init(_ replies: [Reply]) { self.replies = replies }

    convenience init(status: Int, json: String = "", headers: [(name: String, value: String)] = []) {
        self.init([.response(AppStoreHTTPResponse(status: status, headers: headers, body: Data(json.utf8)))])
    }

    var requests: [AppStoreHTTPRequest] { lock.withLock { recorded } }

    func send(_ request: AppStoreHTTPRequest) async throws -> AppStoreHTTPResponse {
        let reply: Reply = lock.withLock {
            recorded.append(request)
            return replies.count > 1 ? replies.removeFirst() : replies[0]
        }
        switch reply {
        case .response(let response): return response
        case .failure(let error): throw error
        }
    }
}

enum APIClientFixtures {
    static let keyId = "keyId"
    static let issuerId = "issuerId"
    static let bundleId = "com.example"

    static func client(
        _ transport: RecordingTransport,
        environment: AppStoreEnvironment = .production,
        baseURL: URL? = nil,
        clock: @escaping @Sendable () -> Date = { SigningFixtures.fixedDate }
    ) throws -> AppStoreServerAPIClient {
        try AppStoreServerAPIClient(
            signingKey: SigningFixtures.privateKey(), keyId: keyId, issuerId: issuerId, bundleId: bundleId,
            environment: environment, baseURL: baseURL, transport: transport, clock: clock
        )
    }

    static func response(_ json: String, status: Int = 200) -> RecordingTransport.Reply {
        .response(AppStoreHTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: Data(json.utf8)))
    }
}

import AppStoreServerHTTP
import AsyncHTTPClient
import Crypto
import Foundation
import Logging
import NIOCore
import OTelSemanticConventions
import Tracing
import VerdictStorage

/// The `deliver-webhook` job: POSTs an event body to `VERDICT_WEBHOOK_URL` with
/// `Verdict-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body" with VERDICT_WEBHOOK_SECRET>`
/// and `Verdict-App: <bundle id>`, the app whose event it is (one receiver may serve several apps).
/// Anything but a 2xx answer (or no answer within 10 s) is retried with the queue's backoff
/// (1 s doubling to 1 h; dead after 10 attempts).
struct WebhookDelivery: JobHandler {
    static let jobKind = "deliver-webhook"
    var kind: String { Self.jobKind }
    let url: URL?
    let secret: String?
    /// The app whose events this handler delivers (its bundle id).
    let app: String
    let now: @Sendable () -> Date

    /// `t=…,v1=…` for `body` at `timestamp` (unix seconds).
    static func signature(body: String, timestamp: Int64, secret: String) -> String {
        let mac = HMAC<SHA256>.authenticationCode(for: Data("\(timestamp).\(body)".utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return "t=\(timestamp),v1=" + mac.map { String(format: "%02x", $0) }.joined()
    }

    /// A non-2xx answer (retried with backoff).
    struct Rejected: Error, CustomStringConvertible {
        var status: Int
        var description: String { "the webhook answered HTTP \(status)" }
    }

    func run(_ job: JobRecord, logger: Logger) async throws -> String? {
        guard let url, let secret else { throw JobFailure.permanent("VERDICT_WEBHOOK_URL is no longer configured") }
        let body = job.job.payload
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "Verdict")
        request.headers.add(name: "Verdict-Delivery", value: String(job.id))
        request.headers.add(name: "Verdict-App", value: app)
        request.headers.add(name: "Verdict-Signature", value: Self.signature(
            body: body, timestamp: Int64(now().timeIntervalSince1970), secret: secret))
        request.body = .bytes(ByteBuffer(string: body))
        // The client is not traced by AsyncHTTPClient (its spans record the whole URL, and an
        // operator's webhook URL may hold a secret): this span records the host and status only.
        return try await withSpan("deliver webhook", ofKind: .client) { span in
            if span.isRecording, let host = url.host { span.attributes.server.address = host }
            let response = try await HTTPClient.untraced.execute(request, timeout: .seconds(10))
            _ = try? await response.body.collect(upTo: 64 * 1024)
            if span.isRecording { span.attributes.http.response.statusCode = Int(response.status.code) }
            guard (200..<300).contains(response.status.code) else {
                throw Rejected(status: Int(response.status.code))
            }
            return "HTTP \(response.status.code)"
        }
    }
}

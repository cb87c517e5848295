import AppStoreServer
import Foundation
import Hummingbird
import NIOCore

/// `POST /v1/retention/realtime`: Apple's Get Retention Message call (Retention Messaging API).
/// No bearer token: the body is signed by the App Store and verified like a notification. A valid
/// request is always answered `200`: an option, or `{}` for Apple's fallback (Apple's
/// performance test counts any other status as a failure). A request naming another app gets no
/// answer at all (the connection is closed), as Apple asks; a body that is not a valid signed
/// request gets the usual 4xx JSON error.
struct RealtimeRoutes {
    /// The largest body accepted (a realtime request is about 4 KiB).
    static let maximumBodyBytes = 64 * 1024

    let apps: AppDirectory
    /// The service's own metrics (a request for no configured app is counted with `app=""`).
    let metrics: ServiceMetrics

    func register(on router: some RouterMethods<ServiceRequestContext>) {
        router.post("/v1/retention/realtime") { request, context in
            try await receive(request, context: context)
        }
    }

    func receive(_ request: Request, context: ServiceRequestContext) async throws -> Response {
        let signedPayload = try await SignedPayloadBody.read(request, limit: Self.maximumBodyBytes)
        let started = ContinuousClock.now
        // With several apps, a request that names no configured app is verified by the first app
        // (a bad signature still gets its 4xx) but never answered: not by an app without an App
        // Apple ID, nor with a fallback or an environment refusal.
        let (app, named) = apps.app(forRealtime: signedPayload)
        let realtime: DecodedRealtimeRequestBody
        do {
            realtime = try await app.verifier.verifyRealtimeRequest(signedPayload)
        } catch .invalidAppIdentifier {
            throw unanswered(context, since: started)
        } catch .retryable where named {
            app.metrics.retentionRealtime(result: "fallback", cause: "verification_unavailable", duration: ContinuousClock.now - started)
            return try Self.response(.fallback)
        } catch let error where !named && Self.signatureWasChecked(error) {
            throw unanswered(context, since: started)
        } catch {
            metrics.verificationFailure(code: error.code)
            context.logger.notice("realtime request refused", metadata: ["code": .string(error.code)])
            throw ServiceError.unprocessable(error.code, error.message)
        }
        guard named else { throw unanswered(context, since: started) }
        let answer = await app.retentionDecider.answer(realtime)
        return try Self.response(answer.body)
    }

    /// Whether verification got past the signature before `error` (the environment, or an online
    /// check that could not complete).
    private static func signatureWasChecked(_ error: VerificationError) -> Bool {
        switch error {
        case .retryable, .invalidEnvironment: true
        default: false
        }
    }

    /// "If it doesn't match, don't respond to the request": counts the request, closes the
    /// connection without a status line, and returns the error that ends the handler.
    private func unanswered(_ context: ServiceRequestContext, since started: ContinuousClock.Instant) -> ServiceError {
        metrics.retentionRealtime(result: "not_answered", cause: "other_app", duration: ContinuousClock.now - started)
        context.logger.notice("realtime request for another app: connection closed unanswered")
        context.channel.close(mode: .all, promise: nil)
        return ServiceError(.forbidden, code: "OTHER_APP", message: "the request names another app; it is not answered")
    }

    /// Apple's response body as JSON.
    static func response(_ body: RealtimeResponseBody) throws -> Response {
        Response(
            status: .ok, headers: [.contentType: "application/json"],
            body: .init(byteBuffer: ByteBuffer(bytes: try AppStoreJSON.encoder().encode(body))))
    }
}

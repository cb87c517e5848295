import Hummingbird
import Logging
import NIOCore

/// The request context of Verdict's router: Hummingbird's core context plus the request id that
/// every log line and error of the request carries.
public struct ServiceRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// Set by ``RequestLogMiddleware`` (the caller's `X-Request-Id` when sane, else a new one).
    public var requestId: String = ""
    /// The role of the request's bearer token, once ``BearerTokenMiddleware`` accepted it.
    public var role: APIToken.Role?
    /// The apps the request may act for, once ``BearerTokenMiddleware`` accepted its token (its
    /// apps, narrowed by a `Verdict-App` header): the only way routes reach an app.
    var requestApps: RequestApps?
    /// The connection, for the one answer that is no answer at all (a realtime request for
    /// another app: the connection is closed).
    let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }

    /// The apps the request may act for; only routes behind ``BearerTokenMiddleware`` have them.
    var apps: RequestApps {
        get throws {
            guard let requestApps else { throw ServiceError(.internalServerError, code: "INTERNAL", message: "no app scope") }
            return requestApps
        }
    }

    /// JSON bodies with Verdict's limits and error answers.
    public var requestDecoder: ServiceRequestDecoder { ServiceRequestDecoder() }
}

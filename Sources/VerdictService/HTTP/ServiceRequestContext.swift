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
    /// The connection, for the one answer that is no answer at all (a realtime request for
    /// another app: the connection is closed).
    let channel: any Channel

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.channel = source.channel
    }

    /// JSON bodies with Verdict's limits and error answers.
    public var requestDecoder: ServiceRequestDecoder { ServiceRequestDecoder() }
}

import AsyncHTTPClient

extension HTTPClient {
    /// A process-wide client configured like `HTTPClient.shared`, whose requests AsyncHTTPClient
    /// neither traces nor stamps with a `traceparent`: its spans record whole URLs (transaction
    /// ids, pagination tokens, a webhook URL's secret), and the App Store and OCSP responders have
    /// no use for the service's trace ids. The service's own spans describe these calls instead.
    public static let untraced: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.tracing.tracer = nil
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()
}

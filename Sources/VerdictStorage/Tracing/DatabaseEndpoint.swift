import OTelSemanticConventions
import Tracing

/// Where a driver's statements go, as OpenTelemetry's database conventions name it: the system,
/// the database and the server — never the user or the password.
struct DatabaseEndpoint: Sendable, Equatable {
    var system: String
    var namespace: String?
    var address: String?
    var port: Int?

    static let sqlite = DatabaseEndpoint(system: "sqlite")

    static func postgres(_ url: DatabaseURL.PostgresURL) -> DatabaseEndpoint {
        DatabaseEndpoint(system: "postgresql", namespace: url.database, address: url.host, port: url.port)
    }

    /// Sets the endpoint's attributes on `span`.
    func describe(_ span: any Span) {
        span.attributes.db.system.name = .init(rawValue: system)
        if let namespace { span.attributes.db.namespace = namespace }
        if let address { span.attributes.server.address = address }
        if let port { span.attributes.server.port = port }
    }
}

import CoreMetrics
import Foundation
import Logging
import OTel
import ServiceLifecycle
import VerdictService

/// OpenTelemetry for `verdict serve` and `verdict demo`, configured by the standard `OTEL_*` variables: traces
/// exported over OTLP by swift-otel (with the trace ids in every JSON log line written inside a
/// span), and optionally the metrics too. Off unless an OTLP endpoint is set: then no tracer is
/// bootstrapped and nothing is exported.
enum Telemetry {
    /// What was set up: the services that export (run them with the application: they flush at
    /// shutdown) and the metrics exporter the service's metrics also go to.
    struct Exporters {
        var services: [any Service] = []
        var metrics: (any MetricsFactory)?
    }

    /// Whether the environment asks for traces: an OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`
    /// or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), unless `OTEL_SDK_DISABLED=true` or
    /// `OTEL_TRACES_EXPORTER=none`.
    static func tracesRequested(_ environment: [String: String]) -> Bool {
        enabled(environment) && environment["OTEL_TRACES_EXPORTER"]?.lowercased() != "none"
            && endpoint("TRACES", in: environment)
    }

    /// Whether the environment asks for metrics over OTLP too: `OTEL_METRICS_EXPORTER=otlp` (an
    /// explicit choice: `/metrics` serves them either way) and an endpoint.
    static func metricsRequested(_ environment: [String: String]) -> Bool {
        enabled(environment) && environment["OTEL_METRICS_EXPORTER"]?.lowercased() == "otlp"
            && endpoint("METRICS", in: environment)
    }

    /// Bootstraps what the environment asks for: the process's tracer (swift-otel's OTLP exporter,
    /// with the `OTEL_*` settings: protocol, sampler, resource attributes, batch delay, …) and the
    /// metrics exporter. Logs keep their own backend; swift-otel's own diagnostics are JSON lines.
    static func bootstrap() throws -> Exporters {
        let environment = ProcessInfo.processInfo.environment
        var exporters = Exporters()
        // The metrics exporter first: its HTTP client, made before the tracer is bootstrapped,
        // is then not traced (AsyncHTTPClient's spans record whole URLs).
        if metricsRequested(environment) {
            try refuseUnsupported("METRICS", in: environment)
            var configuration = base
            configuration.metrics.enabled = true
            let backend = try OTel.makeMetricsBackend(configuration: configuration)
            exporters.metrics = backend.factory
            exporters.services.append(backend.service)
        }
        if tracesRequested(environment) {
            try refuseUnsupported("TRACES", in: environment)
            var configuration = base
            configuration.traces.enabled = true
            // W3C trace context always: it is what jobs store, and the service continues no caller's
            // trace. swift-otel stops the process on any other propagator, `baggage` of
            // OpenTelemetry's own default `tracecontext,baggage` included, so OTEL_PROPAGATORS is not
            // read. Nor is OTEL_SDK_DISABLED, decided above: `false` would turn swift-otel's logs and
            // metrics on, and their bootstrap stops a process whose logging is already set up.
            configuration.propagators = [.traceContext]
            let ignored: Set = ["OTEL_PROPAGATORS", "OTEL_SDK_DISABLED"]
            exporters.services.append(try OTel.bootstrap(
                configuration: configuration, environment: environment.filter { !ignored.contains($0.key) }))
        }
        return exporters
    }

    /// swift-otel's configuration with every signal off, for one to be turned on.
    private static var base: OTel.Configuration {
        var configuration = OTel.Configuration.default
        configuration.serviceName = "verdict"
        configuration.diagnosticLogger = .custom(diagnostics)
        configuration.diagnosticLogLevel = .warning
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.traces.enabled = false
        return configuration
    }

    private static func enabled(_ environment: [String: String]) -> Bool {
        environment["OTEL_SDK_DISABLED"]?.lowercased() != "true"
    }

    private static func endpoint(_ signal: String, in environment: [String: String]) -> Bool {
        ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_\(signal)_ENDPOINT"].contains { !(environment[$0] ?? "").isEmpty }
    }

    /// Settings swift-otel would stop the process on (a crash, not an error) or cannot build, refused
    /// with a clear message instead: OTLP/gRPC (not built in; the signal's own protocol setting,
    /// else the general one, as swift-otel reads them), an exporter other than OTLP, and the
    /// samplers it does not have (Jaeger's remote ones, X-Ray's).
    private static func refuseUnsupported(_ signal: String, in environment: [String: String]) throws {
        if let (key, value) = ["OTEL_EXPORTER_OTLP_\(signal)_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"]
            .lazy.compactMap({ key in environment[key].map { (key, $0) } }).first, value == "grpc" {
            throw UnsupportedSetting(description: "\(key)=grpc: this build exports over OTLP/HTTP only (http/protobuf or http/json)")
        }
        guard signal == "TRACES" else { return }
        // swift-otel's values, matched as it matches them (exactly); others it ignores with a warning.
        if let exporter = environment["OTEL_TRACES_EXPORTER"], ["console", "jaeger", "zipkin"].contains(exporter) {
            throw UnsupportedSetting(description: "OTEL_TRACES_EXPORTER=\(exporter): this build exports traces over OTLP only (otlp, or none for off)")
        }
        if let sampler = environment["OTEL_TRACES_SAMPLER"], ["jaeger_remote", "parentbased_jaeger_remote", "xray"].contains(sampler) {
            throw UnsupportedSetting(description: """
                OTEL_TRACES_SAMPLER=\(sampler): not available (always_on, always_off, traceidratio and their \
                parentbased_ forms are)
                """)
        }
    }

    /// swift-otel's own log lines, as JSON, without the values of the settings it reports reading:
    /// `OTEL_EXPORTER_OTLP_HEADERS` holds vendors' API keys, an endpoint may hold a password.
    /// (swift-otel sets its level: warnings, or `OTEL_LOG_LEVEL`.)
    private static var diagnostics: Logger {
        Logger(label: "opentelemetry") { label in
            var handler = JSONLogHandler(label: label)
            // The values of settings it read, and a carrier it could not parse (headers).
            handler.droppedMetadataKeys = ["environment_value", "previous_value", "new_value", "carrier"]
            return handler
        }
    }

    /// A setting this build cannot honour.
    struct UnsupportedSetting: Error, CustomStringConvertible {
        var description: String
    }

    /// What adds `trace_id`, `span_id` and `trace_flags` to a log line written inside a span.
    static var logMetadata: Logger.MetadataProvider { OTel.makeLoggingMetadataProvider() }
}

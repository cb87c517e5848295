import Foundation
import Logging
import OTel
import ServiceLifecycle
import VerdictService

/// OpenTelemetry for `verdict serve`: traces exported over OTLP by swift-otel, configured by the
/// standard `OTEL_*` variables, and the trace ids in every JSON log line written inside a span.
/// Off unless an OTLP endpoint is set: then no tracer is bootstrapped and nothing is exported.
enum Telemetry {
    /// Whether the environment asks for traces: an OTLP endpoint (`OTEL_EXPORTER_OTLP_ENDPOINT`
    /// or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`), unless `OTEL_SDK_DISABLED=true` or
    /// `OTEL_TRACES_EXPORTER=none`.
    static func tracesRequested(_ environment: [String: String]) -> Bool {
        if environment["OTEL_SDK_DISABLED"]?.lowercased() == "true" { return false }
        if environment["OTEL_TRACES_EXPORTER"]?.lowercased() == "none" { return false }
        return ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"].contains { !(environment[$0] ?? "").isEmpty }
    }

    /// When traces are requested, bootstraps the process's tracer (swift-otel's OTLP exporter,
    /// with the `OTEL_*` settings: protocol, sampler, resource attributes, batch delay, …) and
    /// returns the service that exports the spans (run it with the application: it flushes at
    /// shutdown); nil otherwise. Logs and metrics keep their own backends; swift-otel's own
    /// diagnostics are JSON lines like every other.
    static func bootstrapTraces(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> (any Service)? {
        guard tracesRequested(environment) else { return nil }
        // The traces' own setting wins over the general one, as swift-otel reads them.
        if let (key, value) = ["OTEL_EXPORTER_OTLP_TRACES_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL"]
            .lazy.compactMap({ key in environment[key].map { (key, $0) } }).first, value.lowercased() == "grpc" {
            throw UnsupportedSetting(description: "\(key)=grpc: this build exports over OTLP/HTTP only (http/protobuf or http/json)")
        }
        var configuration = OTel.Configuration.default
        configuration.serviceName = "verdict"
        configuration.diagnosticLogger = .custom(diagnostics)
        configuration.diagnosticLogLevel = .warning
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.traces.enabled = true
        return try OTel.bootstrap(configuration: configuration, environment: environment)
    }

    /// swift-otel's own log lines, as JSON, without the values of the settings it reports reading:
    /// `OTEL_EXPORTER_OTLP_HEADERS` holds vendors' API keys, an endpoint may hold a password.
    /// (swift-otel sets its level: warnings, or `OTEL_LOG_LEVEL`.)
    private static var diagnostics: Logger {
        Logger(label: "opentelemetry") { label in
            var handler = JSONLogHandler(label: label)
            handler.droppedMetadataKeys = ["environment_value", "previous_value", "new_value"]
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

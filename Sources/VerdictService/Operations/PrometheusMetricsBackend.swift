import CoreMetrics
import Prometheus
import Synchronization

/// The swift-metrics backend of the service: a Prometheus registry (what `GET /metrics` shows)
/// behind swift-metrics' `MetricsFactory`. The service's own metrics (``ServiceMetric``) keep their
/// help text and buckets; any other swift-metrics producer that records into it (the process's
/// `MetricsSystem`, once ``bootstrapProcessWide(exportingTo:)`` made it this backend) gets
/// Prometheus' defaults. Recordings may also go to an exporter (OTLP): ``recording``.
public struct PrometheusMetricsBackend: MetricsFactory, Sendable {
    public let registry: PrometheusCollectorRegistry
    /// What the service records into: this backend, and the exporter it was made with, if any.
    public let recording: any MetricsFactory
    private let defaults: PrometheusMetricsFactory
    private static let known = Dictionary(uniqueKeysWithValues: ServiceMetric.all.map { ($0.name, $0) })

    /// A backend with a registry of its own (no global state: several services run in one test
    /// process); with `exporter`, every recording also goes there.
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(), exportingTo exporter: (any MetricsFactory)? = nil) {
        self.registry = registry
        defaults = PrometheusMetricsFactory(registry: registry)
        let prometheus = PrometheusMetricsBackend(registry: registry, defaults: defaults)
        recording = exporter.map { MultiplexMetricsHandler(factories: [prometheus, $0]) } ?? prometheus
    }

    /// The backend inside ``recording`` (its own `recording`, never used, is the defaults).
    private init(registry: PrometheusCollectorRegistry, defaults: PrometheusMetricsFactory) {
        self.registry = registry
        self.defaults = defaults
        recording = defaults
    }

    /// The backend of the process's `MetricsSystem`: made on the first call (which bootstraps
    /// swift-metrics with its ``recording``), the same one after. For `verdict serve` and
    /// `verdict demo`; `exporter` (the first call's) also receives every recording.
    public static func bootstrapProcessWide(exportingTo exporter: (any MetricsFactory)? = nil) -> PrometheusMetricsBackend {
        processWide.withLock { backend in
            if let backend { return backend }
            let made = PrometheusMetricsBackend(exportingTo: exporter)
            MetricsSystem.bootstrap(made.recording)
            backend = made
            return made
        }
    }

    private static let processWide = Mutex<PrometheusMetricsBackend?>(nil)

    private static func descriptor(_ metric: ServiceMetric) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: metric.name, unitName: "", helpText: metric.help)
    }

    // MARK: MetricsFactory

    public func makeCounter(label: String, dimensions: [(String, String)]) -> any CounterHandler {
        guard let metric = Self.known[label], metric.kind == .counter else {
            return defaults.makeCounter(label: label, dimensions: dimensions)
        }
        return registry.makeCounter(descriptor: Self.descriptor(metric), labels: dimensions)
    }

    public func makeFloatingPointCounter(label: String, dimensions: [(String, String)]) -> any FloatingPointCounterHandler {
        defaults.makeFloatingPointCounter(label: label, dimensions: dimensions)
    }

    public func makeRecorder(label: String, dimensions: [(String, String)], aggregate: Bool) -> any RecorderHandler {
        guard !aggregate, let metric = Self.known[label], metric.kind == .gauge else {
            return defaults.makeRecorder(label: label, dimensions: dimensions, aggregate: aggregate)
        }
        return registry.makeGauge(descriptor: Self.descriptor(metric), labels: dimensions)
    }

    public func makeMeter(label: String, dimensions: [(String, String)]) -> any MeterHandler {
        guard let metric = Self.known[label], metric.kind == .gauge else {
            return defaults.makeMeter(label: label, dimensions: dimensions)
        }
        return registry.makeGauge(descriptor: Self.descriptor(metric), labels: dimensions)
    }

    public func makeTimer(label: String, dimensions: [(String, String)]) -> any TimerHandler {
        guard let metric = Self.known[label], case .histogram(let buckets) = metric.kind else {
            return defaults.makeTimer(label: label, dimensions: dimensions)
        }
        return registry.makeDurationHistogram(descriptor: Self.descriptor(metric), labels: dimensions, buckets: buckets)
    }

    public func destroyCounter(_ handler: any CounterHandler) { defaults.destroyCounter(handler) }
    public func destroyFloatingPointCounter(_ handler: any FloatingPointCounterHandler) { defaults.destroyFloatingPointCounter(handler) }
    public func destroyRecorder(_ handler: any RecorderHandler) { defaults.destroyRecorder(handler) }
    public func destroyMeter(_ handler: any MeterHandler) { defaults.destroyMeter(handler) }
    public func destroyTimer(_ handler: any TimerHandler) { defaults.destroyTimer(handler) }
}

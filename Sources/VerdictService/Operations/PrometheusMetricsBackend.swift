import CoreMetrics
import Prometheus
import Synchronization

/// The swift-metrics backend of the service: a Prometheus registry (what `GET /metrics` shows)
/// behind swift-metrics' `MetricsFactory`. The service's own metrics (``ServiceMetric``) keep their
/// help text and buckets; any other swift-metrics producer that records into it (the process's
/// `MetricsSystem`, once ``bootstrapProcessWide()`` made it this backend) gets Prometheus' defaults.
public struct PrometheusMetricsBackend: MetricsFactory, Sendable {
    public let registry: PrometheusCollectorRegistry
    private let defaults: PrometheusMetricsFactory
    private static let known = Dictionary(uniqueKeysWithValues: ServiceMetric.all.map { ($0.name, $0) })

    /// A backend with a registry of its own (no global state: several services run in one test process).
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        defaults = PrometheusMetricsFactory(registry: registry)
    }

    /// The backend of the process's `MetricsSystem`: made one on the first call (which bootstraps
    /// swift-metrics with it), the same one after. For `verdict serve` and `verdict demo`.
    public static func bootstrapProcessWide() -> PrometheusMetricsBackend {
        processWide.withLock { backend in
            if let backend { return backend }
            let made = PrometheusMetricsBackend()
            MetricsSystem.bootstrap(made)
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

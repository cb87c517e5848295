import Instrumentation
import ServiceContextModule

/// The W3C `traceparent` of the current work, carried across the job queue: a job stores the
/// one of the work that enqueued it, and each attempt of the job continues that trace. Nil (and
/// nothing stored) while no tracer is bootstrapped — tracing off costs one no-op call.
public enum TraceParent {
    static let header = "traceparent"

    /// The current context's `traceparent`, if a tracer put one in it.
    public static func current() -> String? {
        guard let context = ServiceContext.current else { return nil }
        var carrier: [String: String] = [:]
        InstrumentationSystem.instrument.inject(context, into: &carrier, using: DictionaryInjector())
        return carrier[header]
    }

    /// The trace id of a `traceparent` (`00-<trace id>-<span id>-<flags>`).
    public static func traceId(_ traceParent: String) -> Substring? {
        let parts = traceParent.split(separator: "-")
        return parts.count == 4 ? parts[1] : nil
    }

    /// A context continuing the trace of `traceParent` (and `state`, a `tracestate`); the top level
    /// when nil or not understood. Only these reach the tracer (never a request's other headers).
    public static func context(_ traceParent: String?, state: String? = nil) -> ServiceContext {
        var context = ServiceContext.topLevel
        if let traceParent {
            var carrier = [header: traceParent]
            carrier["tracestate"] = state
            InstrumentationSystem.instrument.extract(carrier, into: &context, using: DictionaryExtractor())
        }
        return context
    }

    private struct DictionaryInjector: Injector {
        func inject(_ value: String, forKey key: String, into carrier: inout [String: String]) {
            carrier[key] = value
        }
    }

    private struct DictionaryExtractor: Extractor {
        func extract(key: String, from carrier: [String: String]) -> String? {
            carrier[key]
        }
    }
}

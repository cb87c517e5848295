import Tracing

/// Whether the current work belongs to a span that records (a sampled trace). Set where the
/// service starts or continues a trace — a request, a job's attempt, a recovered notification —
/// and read by the database spans: one task-local read per database call, instead of asking the
/// tracer for the trace context each time. Off outside any trace and with tracing off.
public enum TraceRecording {
    @TaskLocal public static var isOn = false

    /// Runs `work` with `span`'s recording state as the current one.
    public static func within<T>(
        _ span: any Span, isolation: isolated (any Actor)? = #isolation, _ work: () async throws -> T
    ) async rethrows -> T {
        try await $isOn.withValue(span.isRecording, operation: work)
    }
}

import Tracing
import VerdictStorage

/// Work shared by several notifications (one history sync for a customer) belongs to the trace of
/// the notification that started it; the others record a span that links to it.
enum SharedWorkSpan {
    /// A span in the current trace, linked to the trace of the shared work that `traceParent`
    /// names (the stored `traceparent` of its job) — when that is another trace: a job that runs
    /// again finds the work it started itself.
    static func link(_ work: String, to traceParent: String) {
        guard let current = TraceParent.current(), TraceParent.traceId(current) != TraceParent.traceId(traceParent) else { return }
        let span = startSpan("\(work) shared with another notification")
        span.addLink(SpanLink(context: TraceParent.context(traceParent), attributes: [:]))
        if span.isRecording { span.attributes["verdict.shared_work"] = work }
        span.end()
    }
}

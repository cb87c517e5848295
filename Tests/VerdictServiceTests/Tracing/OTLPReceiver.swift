import Foundation
import HTTPTypes
import Hummingbird
import Synchronization

/// An OpenTelemetry collector for tests: an OTLP/HTTP endpoint (`POST /v1/traces` and
/// `/v1/metrics`, protobuf bodies, gzip refused) that keeps every span and the name of every
/// metric it receives, read with ``ProtobufMessage``.
final class OTLPReceiver: Sendable {
    /// One received span.
    struct Span: Sendable, CustomStringConvertible {
        var traceId: String
        var spanId: String
        /// Empty for a root span.
        var parentSpanId: String
        var name: String
        /// OTLP's SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer.
        var kind: Int
        /// Attribute values as text (strings, integers, booleans, doubles).
        var attributes: [String: String]
        /// The spans it links to, as (trace id, span id).
        var links: [(traceId: String, spanId: String)]
        /// The resource's attributes (`service.name`, …).
        var resource: [String: String]
        /// The status code: 0 unset, 1 ok, 2 error.
        var status: Int
        /// The status message.
        var statusMessage: String
        /// Its events (a recorded error's `exception.message` among their attributes), as name and attributes.
        var events: [(name: String, attributes: [String: String])]

        /// Every text the span carries: its name, attribute values, status message, events.
        var texts: [String] {
            [name, statusMessage] + attributes.values + events.flatMap { [$0.name] + $0.attributes.values }
                + links.flatMap { [$0.traceId, $0.spanId] }
        }

        var description: String { "\(name) \(traceId)/\(spanId)<-\(parentSpanId)" }
    }

    private let received = Mutex<[Span]>([])
    private let requests = Mutex<[String]>([])
    private let metricNames = Mutex<Set<String>>([])

    var spans: [Span] { received.withLock { $0 } }
    /// The names of the metrics received (`ExportMetricsServiceRequest`'s metrics).
    var metrics: Set<String> { metricNames.withLock { $0 } }
    /// Each request's content type, in order.
    var contentTypes: [String] { requests.withLock { $0 } }

    /// Runs `body` with a receiver on 127.0.0.1; `endpoint` is its base URL (`OTEL_EXPORTER_OTLP_ENDPOINT`).
    static func with<T: Sendable>(_ body: (OTLPReceiver, String) async throws -> T) async throws -> T {
        let receiver = OTLPReceiver()
        let router = Router()
        router.post("/v1/traces") { request, _ -> Response in
            let buffer = try await request.body.collect(upTo: 16 << 20)
            receiver.requests.withLock { $0.append(request.headers[.contentType] ?? "") }
            guard request.headers[.contentEncoding] == nil else { return Response(status: .unsupportedMediaType) }
            let spans = try Self.spans(in: Array(buffer.readableBytesView))
            receiver.received.withLock { $0.append(contentsOf: spans) }
            return Response(status: .ok, headers: [.contentType: "application/x-protobuf"])
        }
        router.post("/v1/metrics") { request, _ -> Response in
            let buffer = try await request.body.collect(upTo: 16 << 20)
            guard request.headers[.contentEncoding] == nil else { return Response(status: .unsupportedMediaType) }
            var names: Set<String> = []
            for resourceMetrics in try ProtobufMessage(Array(buffer.readableBytesView)).messages(1) {
                for scopeMetrics in try resourceMetrics.messages(2) {
                    for metric in try scopeMetrics.messages(2) { if let name = metric.string(1) { names.insert(name) } }
                }
            }
            receiver.metricNames.withLock { $0.formUnion(names) }
            return Response(status: .ok, headers: [.contentType: "application/x-protobuf"])
        }
        let running = try await RunningApplication.start { onServerRunning in
            Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { await onServerRunning($0.localAddress?.port ?? 0) })
        }
        do {
            let result = try await body(receiver, "http://127.0.0.1:\(running.port)")
            try await running.stop("the OTLP receiver's shutdown")
            return result
        } catch {
            try? await running.stop("the OTLP receiver's shutdown")
            throw error
        }
    }

    /// Waits until `condition` holds for the spans received (the exporter sends in batches).
    func waitFor(timeout: Duration = .seconds(20), _ what: String, _ condition: ([Span]) -> Bool) async throws -> [Span] {
        let deadline = ContinuousClock.now + timeout
        while true {
            let spans = self.spans
            if condition(spans) { return spans }
            guard ContinuousClock.now < deadline else {
                throw ServiceTestError("no \(what) within \(timeout); received: \(spans.map(\.description))")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// The spans of an `ExportTraceServiceRequest`.
    static func spans(in body: [UInt8]) throws -> [Span] {
        var spans: [Span] = []
        for resourceSpans in try ProtobufMessage(body).messages(1) {
            let resource = try attributes(try resourceSpans.message(1)?.messages(1) ?? [])
            for scopeSpans in try resourceSpans.messages(2) {
                for span in try scopeSpans.messages(2) {
                    spans.append(Span(
                        traceId: span.hex(1) ?? "", spanId: span.hex(2) ?? "", parentSpanId: span.hex(4) ?? "",
                        name: span.string(5) ?? "", kind: Int(span.integer(6) ?? 0),
                        attributes: try attributes(try span.messages(9)),
                        links: try span.messages(13).map { ($0.hex(1) ?? "", $0.hex(2) ?? "") },
                        resource: resource, status: Int(try span.message(15)?.integer(3) ?? 0),
                        statusMessage: try span.message(15)?.string(2) ?? "",
                        events: try span.messages(11).map { ($0.string(2) ?? "", try attributes(try $0.messages(3))) }))
                }
            }
        }
        return spans
    }

    /// `KeyValue` messages as text.
    private static func attributes(_ keyValues: [ProtobufMessage]) throws -> [String: String] {
        var attributes: [String: String] = [:]
        for keyValue in keyValues {
            guard let key = keyValue.string(1), let value = try keyValue.message(2) else { continue }
            if let text = value.string(1) {
                attributes[key] = text
            } else if let flag = value.integer(2) {
                attributes[key] = flag == 0 ? "false" : "true"
            } else if let integer = value.integer(3) {
                attributes[key] = String(Int64(bitPattern: integer))
            } else if let double = value.integer(4) {
                attributes[key] = String(Double(bitPattern: double))
            } else {
                attributes[key] = "<\(value.fields.count) fields>"
            }
        }
        return attributes
    }
}

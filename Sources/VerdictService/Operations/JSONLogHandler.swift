import Foundation
import Logging

/// A swift-log handler that writes one JSON object per line to standard error:
/// `{"ts":"…","level":"info","label":"…","msg":"…", …metadata}`.
///
/// Metadata is written as given: callers never put keys, tokens or signed payloads in it.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    /// Adds metadata to every line (the current trace's `trace_id` and `span_id`, when tracing).
    public var metadataProvider: Logger.MetadataProvider?
    /// Metadata never written, whoever logs it (a library's lines that may carry secrets).
    public var droppedMetadataKeys: Set<String> = []
    private let label: String

    public init(label: String, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.metadataProvider = metadataProvider
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var object: [String: Any] = [
            "ts": Self.timestamp(),
            "level": event.level.rawValue,
            "label": label,
            "msg": "\(event.message)",
        ]
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        merged.merge(event.metadata ?? [:]) { _, new in new }
        for key in droppedMetadataKeys { merged[key] = nil }
        for (key, value) in merged {
            object[key] = Self.json(value)
        }
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        var line = data
        line.append(0x0A)
        FileHandle.standardError.write(line)
    }

    private static func json(_ value: Logger.Metadata.Value) -> Any {
        switch value {
        case .string(let string): string
        case .stringConvertible(let convertible): "\(convertible)"
        case .array(let values): values.map(json)
        case .dictionary(let dictionary): dictionary.mapValues(json)
        }
    }

    private static func timestamp() -> String {
        Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: true).timeZone(separator: .omitted))
    }
}

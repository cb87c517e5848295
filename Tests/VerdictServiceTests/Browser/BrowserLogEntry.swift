import AppStoreServer

/// One message of the browser's console log as ChromeDriver reports it: `SEVERE` for errors
/// (`console.error`, uncaught exceptions, failed loads), `WARNING`, `INFO`, `DEBUG`; `source` is
/// `console-api`, `javascript`, `network`, `security`, ….
struct BrowserLogEntry: Sendable, Hashable, CustomStringConvertible {
    let level: String
    let source: String
    let message: String

    /// The entry of one element of the driver's log reply; nil when it is not an object.
    init?(_ value: JSONValue) {
        guard let object = value.objectValue else { return nil }
        level = object["level"]?.stringValue ?? ""
        source = object["source"]?.stringValue ?? ""
        message = object["message"]?.stringValue ?? ""
    }

    /// An error: a console error, an uncaught exception, or a resource that did not load.
    var isSevere: Bool { level == "SEVERE" }

    /// A message about something the page could not load (whatever its level).
    var isFailedLoad: Bool {
        source == "network" || message.contains("Failed to load") || message.contains("net::ERR_")
    }

    var description: String { "\(level) [\(source)] \(message)" }
}

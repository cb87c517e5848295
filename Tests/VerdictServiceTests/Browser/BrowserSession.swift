import AppStoreServer
import Foundation
import NIOHTTP1

/// A WebDriver session in a running ChromeDriver: navigate, run scripts, read the console, emulate
/// media features and take screenshots. Create one with ``HeadlessChromium/withSession(_:)``,
/// which also ends it.
struct BrowserSession: Sendable {
    let connection: WebDriverConnection
    let id: String

    /// `POST /session` with `capabilities` (the `alwaysMatch` object).
    static func create(_ connection: WebDriverConnection, capabilities: [String: JSONValue]) async throws -> BrowserSession {
        let value = try await connection.send(.POST, "/session", .object(["capabilities": .object(["alwaysMatch": .object(capabilities)])]))
        guard let id = value.objectValue?["sessionId"]?.stringValue else {
            throw ServiceTestError("POST /session answered no sessionId: \(value)")
        }
        return BrowserSession(connection: connection, id: id)
    }

    /// Ends the session (the driver quits its browser).
    func delete() async throws {
        _ = try await connection.send(.DELETE, "/session/\(id)")
    }

    /// Loads `url` and returns once the page has loaded.
    func navigate(to url: URL) async throws {
        _ = try await command(.POST, "/url", .object(["url": .string(url.absoluteString)]))
    }

    /// Runs `script` (a function body: `return …` answers a value) with `arguments`, and answers
    /// what it returned.
    func execute(_ script: String, _ arguments: [JSONValue] = []) async throws -> JSONValue {
        try await command(.POST, "/execute/sync", .object(["script": .string(script), "args": .array(arguments)]))
    }

    /// The console messages since the last call (ChromeDriver's `POST /se/log`, type `browser`;
    /// the session must have asked for them with `goog:loggingPrefs`).
    func consoleLog() async throws -> [BrowserLogEntry] {
        let value = try await command(.POST, "/se/log", .object(["type": .string("browser")]))
        guard let entries = value.arrayValue else { throw ServiceTestError("the browser log is not a list: \(value)") }
        return entries.compactMap(BrowserLogEntry.init)
    }

    /// Runs a Chrome DevTools Protocol command (ChromeDriver's `POST /goog/cdp/execute`).
    @discardableResult
    func devTools(_ method: String, _ parameters: [String: JSONValue] = [:]) async throws -> JSONValue {
        try await command(.POST, "/goog/cdp/execute", .object(["cmd": .string(method), "params": .object(parameters)]))
    }

    /// Emulates `prefers-color-scheme: scheme` (`light` or `dark`) for the pages of this session.
    func emulateColorScheme(_ scheme: String) async throws {
        try await devTools("Emulation.setEmulatedMedia", [
            "features": .array([.object(["name": .string("prefers-color-scheme"), "value": .string(scheme)])]),
        ])
    }

    /// The visible part of the page as PNG (W3C `GET /screenshot`).
    func screenshot() async throws -> Data {
        try Self.png(try await command(.GET, "/screenshot"), "GET /screenshot")
    }

    /// The whole page as PNG, however long: the document's scroll size captured beyond the viewport
    /// (DevTools `Page.captureScreenshot`).
    func fullPageScreenshot() async throws -> Data {
        let size = try await execute("return [document.documentElement.scrollWidth, document.documentElement.scrollHeight]")
        guard let dimensions = size.arrayValue?.compactMap(\.integerValue), dimensions.count == 2 else {
            throw ServiceTestError("the page size is not two integers: \(size)")
        }
        let clip: [String: JSONValue] = [
            "x": .integer(0), "y": .integer(0), "width": .integer(dimensions[0]), "height": .integer(dimensions[1]), "scale": .integer(1),
        ]
        let value = try await devTools("Page.captureScreenshot", [
            "format": .string("png"), "captureBeyondViewport": .bool(true), "clip": .object(clip),
        ])
        return try Self.png(value.objectValue?["data"] ?? .null, "Page.captureScreenshot")
    }

    /// A command under `/session/{id}`.
    private func command(_ method: HTTPMethod, _ path: String, _ body: JSONValue? = nil) async throws -> JSONValue {
        try await connection.send(method, "/session/\(id)" + path, body)
    }

    /// The PNG in a Base64 `value`.
    private static func png(_ value: JSONValue, _ command: String) throws -> Data {
        guard let base64 = value.stringValue, let data = Data(base64Encoded: base64) else {
            throw ServiceTestError("\(command) answered no Base64 image")
        }
        return data
    }
}

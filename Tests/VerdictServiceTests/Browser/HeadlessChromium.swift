import AppStoreServer
import Foundation

/// Headless Chromium driven over WebDriver, for tests of the HTML pages: starts the configured
/// ChromeDriver (``BrowserTestEnvironment``), opens one browser session with a 1280 × 2000
/// window and the console log enabled, and ends both however the body ends.
enum HeadlessChromium {
    /// The `alwaysMatch` capabilities of every session.
    static let capabilities: [String: JSONValue] = [
        "browserName": .string("chrome"),
        "goog:chromeOptions": .object([
            "args": .array(["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,2000"].map(JSONValue.string)),
        ]),
        "goog:loggingPrefs": .object(["browser": .string("ALL")]),
    ]

    /// Runs `body` with a fresh browser session; the session and the driver are gone afterwards.
    static func withSession<T: Sendable>(_ body: (BrowserSession) async throws -> T) async throws -> T {
        let driver = try await ChromeDriverProcess.start(executable: try BrowserTestEnvironment.requireChromedriver())
        let session: BrowserSession
        do {
            session = try await BrowserSession.create(driver.connection, capabilities: capabilities)
        } catch {
            let log = driver.logText.suffix(2000)
            await driver.terminate()
            throw ServiceTestError("no browser session: \(error); chromedriver said: \(log)")
        }
        let result: Result<T, any Error>
        do {
            result = .success(try await body(session))
        } catch {
            result = .failure(error)
        }
        try? await session.delete()
        await driver.terminate()
        return try result.get()
    }
}

import Foundation
import Testing
import VerdictTestSupport

/// Whether and how the browser tests run: `VERDICT_TEST_CHROMEDRIVER` names the ChromeDriver
/// executable (`.ci/chromium.sh` sets it). Without it the browser tests are skipped, unless
/// `CI=true`, where a missing driver fails them (as a missing PostgreSQL fails the database tests).
/// Screenshots go to the temporary directory, and are copied to `VERDICT_SCREENSHOT_DIR` when set.
enum BrowserTestEnvironment {
    /// The ChromeDriver executable, when configured.
    static var chromedriverPath: String? {
        ProcessInfo.processInfo.environment["VERDICT_TEST_CHROMEDRIVER"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Whether the browser tests run: with a driver, or on CI (where they then fail without one).
    static var isEnabled: Bool { chromedriverPath != nil || TestBackend.isCI }

    /// Why they are skipped when they are.
    static let skipReason: Comment =
        "VERDICT_TEST_CHROMEDRIVER is not set: browser tests skipped (source .ci/chromium.sh; with CI=true they fail instead)"

    /// The driver to start, or an error saying why there is none (only reached on CI).
    static func requireChromedriver() throws -> URL {
        guard let path = chromedriverPath else {
            throw ServiceTestError("VERDICT_TEST_CHROMEDRIVER is not set and CI=true: the browser tests must run (source .ci/chromium.sh)")
        }
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw ServiceTestError("VERDICT_TEST_CHROMEDRIVER=\(path) is not an executable file")
        }
        return URL(fileURLWithPath: path)
    }

    /// Writes `png` as `name` in the temporary directory (and prints where); with `publish`, copies
    /// it to `VERDICT_SCREENSHOT_DIR` too when that is set (the screenshots the docs show). Returns
    /// the temporary file.
    @discardableResult
    static func saveScreenshot(_ png: Data, name: String, publish: Bool) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        try png.write(to: file)
        print("screenshot: \(file.path)")
        if publish, let directory = ProcessInfo.processInfo.environment["VERDICT_SCREENSHOT_DIR"], !directory.isEmpty {
            let folder = URL(fileURLWithPath: directory, isDirectory: true)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let copy = folder.appendingPathComponent(name)
            try png.write(to: copy)
            print("screenshot copied to \(copy.path)")
        }
        return file
    }
}

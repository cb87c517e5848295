import AppStoreServer
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A `chromedriver` child process on 127.0.0.1 and a free port, with its output captured to a
/// temporary file (quoted when it does not start). Stop it with ``terminate()``; a driver still running when this
/// object goes away is killed.
final class ChromeDriverProcess: @unchecked Sendable {
    // `Process` is not Sendable; it is only touched through the methods below (signals and
    // `isRunning` / `terminationStatus` reads), which are safe from any task.
    private let process: Process
    /// Commands to this driver.
    let connection: WebDriverConnection
    /// Its standard output and standard error.
    let logFile: URL

    private init(process: Process, port: Int, logFile: URL) {
        self.process = process
        self.connection = WebDriverConnection(baseURL: "http://127.0.0.1:\(port)")
        self.logFile = logFile
    }

    deinit {
        if process.isRunning { Self.signal(SIGKILL, process.processIdentifier) }
    }

    /// Starts `executable --port=<free port>` and waits until `GET /status` says it is ready for new
    /// sessions. Tries another port when it loses a race for the first.
    static func start(executable: URL, timeout: Duration = .seconds(30)) async throws -> ChromeDriverProcess {
        var lastError: any Error = ServiceTestError("chromedriver did not start")
        for _ in 1...3 {
            let port = try ServiceProcess.freePort()
            let logFile = FileManager.default.temporaryDirectory.appendingPathComponent("verdict-chromedriver-\(UUID().uuidString).log")
            guard FileManager.default.createFile(atPath: logFile.path, contents: nil) else {
                throw ServiceTestError("cannot create \(logFile.path)")
            }
            let process = Process()
            process.executableURL = executable
            process.arguments = ["--port=\(port)"]
            process.standardInput = FileHandle.nullDevice
            let output = try FileHandle(forWritingTo: logFile)
            process.standardOutput = output
            process.standardError = output
            try process.run()
            try? output.close()
            let driver = ChromeDriverProcess(process: process, port: port, logFile: logFile)
            do {
                try await driver.waitUntilReady(timeout: timeout)
                return driver
            } catch {
                lastError = error
                // Only a lost race for the port is worth another try.
                let lostPort = driver.logText.contains("bind") || driver.logText.contains("in use")
                await driver.terminate()
                guard lostPort else { throw error }
            }
        }
        throw lastError
    }

    /// Polls `GET /status` until `value.ready` is true.
    private func waitUntilReady(timeout: Duration) async throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            guard process.isRunning else {
                throw ServiceTestError("chromedriver exited with \(process.terminationStatus) before it was ready: \(logText.suffix(2000))")
            }
            if let status = try? await connection.send(.GET, "/status", timeout: .seconds(1)),
               status.objectValue?["ready"]?.boolValue == true {
                return
            }
            guard ContinuousClock.now < deadline else {
                throw ServiceTestError("chromedriver was not ready within \(timeout): \(logText.suffix(2000))")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
    }

    /// Asks the driver to quit (`GET /shutdown`: it closes the browsers of any session left open),
    /// SIGKILL when it has not exited after five seconds; waits until it has, and removes its log
    /// file. (Not SIGTERM: the child inherits the test runner's signal mask, in which SIGTERM is
    /// blocked, so it would sit out the five seconds.)
    func terminate() async {
        defer { try? FileManager.default.removeItem(at: logFile) }
        guard process.isRunning else { return }
        _ = try? await connection.send(.GET, "/shutdown", timeout: .seconds(2))
        let deadline = ContinuousClock.now + .seconds(5)
        while process.isRunning, ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning { Self.signal(SIGKILL, process.processIdentifier) }
        process.waitUntilExit()
    }

    /// What the driver wrote so far.
    var logText: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    private static func signal(_ signal: Int32, _ pid: Int32) {
        _ = kill(pid, signal)
    }
}

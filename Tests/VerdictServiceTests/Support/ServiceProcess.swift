import AppStoreServer
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `kill(2)` (a free function: `ServiceProcess.kill()` shadows the name inside the class).
private func sendSignal(_ signal: Int32, to pid: Int32) {
    _ = kill(pid, signal)
}

/// A `verdict serve` child process (the product built next to the test bundle) on 127.0.0.1 and a
/// free port, with its standard error (JSON log lines) captured to a file.
///
/// Start children inside ``ServiceProcess/group(_:)``: whatever is still running when the body
/// ends (or throws) is killed and reaped, so no child outlives its test or holds the test database.
final class ServiceProcess: @unchecked Sendable {
    // `Process` is not Sendable; it is only touched through the methods below, which are safe to
    // call from any task (signals and `isRunning` / `terminationStatus` reads).
    private let process: Process
    let port: Int
    let baseURL: String
    /// Standard error (the JSON log lines).
    let logFile: URL
    /// Standard output (`verdict serve` writes nothing there).
    let outputFile: URL

    var pid: Int32 { process.processIdentifier }
    var isRunning: Bool { process.isRunning }

    private init(process: Process, port: Int, logFile: URL, outputFile: URL) {
        self.process = process
        self.port = port
        self.baseURL = "http://127.0.0.1:\(port)"
        self.logFile = logFile
        self.outputFile = outputFile
    }

    deinit {
        if process.isRunning { sendSignal(SIGKILL, to: process.processIdentifier) }
    }

    // MARK: Starting

    /// The `verdict` executable: `VERDICT_BINARY`, else next to the test bundle (the directory of
    /// `arguments[0]` or of `Bundle.main`), else `.build/debug/verdict` above this source file.
    static func binaryURL() throws -> URL {
        let fileManager = FileManager.default
        var candidates: [URL] = []
        if let explicit = ProcessInfo.processInfo.environment["VERDICT_BINARY"], !explicit.isEmpty {
            candidates.append(URL(fileURLWithPath: explicit))
        }
        let argument0 = URL(fileURLWithPath: ProcessInfo.processInfo.arguments[0]).resolvingSymlinksInPath()
        candidates.append(argument0.deletingLastPathComponent().appendingPathComponent("verdict"))
        let bundle = Bundle.main.bundleURL.resolvingSymlinksInPath()
        candidates.append(bundle.appendingPathComponent("verdict"))
        candidates.append(bundle.deletingLastPathComponent().appendingPathComponent("verdict"))
        var directory = URL(fileURLWithPath: #filePath)
        while directory.path != "/" {
            directory.deleteLastPathComponent()
            candidates.append(directory.appendingPathComponent(".build/debug/verdict"))
        }
        for candidate in candidates {
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue,
               fileManager.isExecutableFile(atPath: candidate.path) {
                return candidate
            }
        }
        throw ServiceTestError("no verdict executable found (build it with `swift build --build-tests`); looked at \(candidates.map(\.path))")
    }

    /// A TCP port that was free a moment ago (bound to 0 on 127.0.0.1, then closed).
    static func freePort() throws -> Int {
        let (fd, port) = try boundSocket()
        close(fd)
        return port
    }

    /// A port that refuses connections for as long as the returned socket stays open (it is bound
    /// but never listens, so no server of a parallel test can take the port); close it when done.
    static func refusingPort() throws -> (socket: Int32, port: Int) {
        try boundSocket()
    }

    /// A TCP socket bound to 127.0.0.1 on a free port, not listening.
    private static func boundSocket() throws -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServiceTestError("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw ServiceTestError("bind() failed: errno \(errno)")
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    /// The environment of a child: this process's variables without any `VERDICT_*` or `OTEL_*`
    /// (so a developer's settings never leak in), then `settings`.
    static func childEnvironment(_ settings: [String: String]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter {
            !$0.key.hasPrefix("VERDICT_") && !$0.key.hasPrefix("OTEL_")
        }
        environment.merge(settings) { _, new in new }
        return environment
    }

    /// Launches `verdict <arguments>` with `settings` as its `VERDICT_*` environment; output goes to
    /// files in `directory` named after `name`.
    private static func launch(
        arguments: [String], settings: [String: String], directory: URL, name: String
    ) throws -> (Process, logFile: URL, outputFile: URL) {
        let logFile = directory.appendingPathComponent("\(name).stderr.log")
        let outputFile = directory.appendingPathComponent("\(name).stdout.log")
        for file in [logFile, outputFile] {
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                throw ServiceTestError("cannot create \(file.path)")
            }
        }
        let process = Process()
        process.executableURL = try binaryURL()
        process.arguments = arguments
        process.environment = childEnvironment(settings)
        process.standardInput = FileHandle.nullDevice
        let errorHandle = try FileHandle(forWritingTo: logFile)
        let outputHandle = try FileHandle(forWritingTo: outputFile)
        process.standardError = errorHandle
        process.standardOutput = outputHandle
        try process.run()
        // The child holds its own descriptors now.
        try? errorHandle.close()
        try? outputHandle.close()
        return (process, logFile, outputFile)
    }

    /// Starts `verdict serve` with `settings` (typically `harness.environment` plus overrides) on a
    /// free port and waits until `GET /healthz` answers 200.
    static func start(
        _ settings: [String: String], directory: URL, name: String, timeout: Duration = .seconds(30)
    ) async throws -> ServiceProcess {
        var lastError: any Error = ServiceTestError("verdict serve did not start")
        for _ in 0..<3 {
            let port = try freePort()
            var settings = settings
            settings["VERDICT_HOST"] = "127.0.0.1"
            settings["VERDICT_PORT"] = "\(port)"
            let (process, logFile, outputFile) = try launch(arguments: ["serve"], settings: settings, directory: directory, name: name)
            let child = ServiceProcess(process: process, port: port, logFile: logFile, outputFile: outputFile)
            do {
                try await child.waitUntilHealthy(timeout: timeout)
                return child
            } catch {
                lastError = error
                _ = try? await child.kill()
                // Only a lost race for the port is worth another try.
                guard child.logText.contains("Address already in use") else { throw error }
            }
        }
        throw lastError
    }

    /// Runs `verdict <arguments>` to completion (e.g. a startup that must fail): exit status and
    /// everything it wrote to standard output and standard error.
    static func run(
        _ arguments: [String], settings: [String: String], directory: URL, name: String, timeout: Duration = .seconds(30)
    ) async throws -> (status: Int32, output: String) {
        let (process, logFile, outputFile) = try launch(arguments: arguments, settings: settings, directory: directory, name: name)
        let child = ServiceProcess(process: process, port: 0, logFile: logFile, outputFile: outputFile)
        let status = try await child.waitForExit(timeout: timeout)
        let output = (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
        return (status, output + child.logText)
    }

    private func waitUntilHealthy(timeout: Duration) async throws {
        let deadline = ContinuousClock.now + timeout
        while true {
            guard process.isRunning else {
                throw ServiceTestError("verdict serve exited with \(process.terminationStatus) before answering /healthz: \(logText.suffix(2000))")
            }
            if let (status, _) = try? await request(.GET, "/healthz", token: nil, timeout: .seconds(1)), status == 200 { return }
            guard ContinuousClock.now < deadline else {
                throw ServiceTestError("verdict serve did not answer /healthz within \(timeout): \(logText.suffix(2000))")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    // MARK: Stopping

    /// Waits until the process exits; its exit status (or the signal number when a signal ended it).
    @discardableResult
    func waitForExit(timeout: Duration) async throws -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            guard ContinuousClock.now < deadline else {
                throw ServiceTestError("verdict (pid \(pid)) still running after \(timeout)")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return process.terminationStatus
    }

    /// True when a signal (not `exit`) ended the process.
    var wasSignalled: Bool { !process.isRunning && process.terminationReason == .uncaughtSignal }

    /// SIGKILL (a crash: no shutdown code runs) and reap.
    @discardableResult
    func kill() async throws -> Int32 {
        if process.isRunning { sendSignal(SIGKILL, to: pid) }
        return try await waitForExit(timeout: .seconds(10))
    }

    /// SIGHUP (reload the rules).
    func hangUp() {
        if process.isRunning { sendSignal(SIGHUP, to: pid) }
    }

    /// SIGSTOP: the process stops where it is (its leases run out) until ``resume()``.
    func suspend() {
        if process.isRunning { sendSignal(SIGSTOP, to: pid) }
    }

    /// SIGCONT after ``suspend()``.
    func resume() {
        if process.isRunning { sendSignal(SIGCONT, to: pid) }
    }

    /// SIGTERM (graceful shutdown) and wait up to `timeout` for the exit status.
    @discardableResult
    func terminate(timeout: Duration = .seconds(15)) async throws -> Int32 {
        if process.isRunning { sendSignal(SIGTERM, to: pid) }
        return try await waitForExit(timeout: timeout)
    }

    // MARK: Output

    /// Standard error so far.
    var logText: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// Standard error so far, one entry per line (empty lines dropped).
    var logLines: [String] { logText.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }

    // MARK: HTTP

    /// A request to the child. `timeout` bounds the whole exchange: AsyncHTTPClient keeps retrying a
    /// refused connection until the deadline, so requests to a child that may be dead use a short one.
    func request(
        _ method: HTTPMethod, _ path: String, body: Data? = nil, token: String? = ServiceHarness.token,
        headers: [(String, String)] = [], timeout: Duration = .seconds(30)
    ) async throws -> (status: Int, body: Data) {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        let milliseconds = Int64(timeout / .milliseconds(1))
        let response = try await HTTPClient.shared.execute(request, timeout: .milliseconds(milliseconds))
        let buffer = try await response.body.collect(upTo: 4 * 1024 * 1024)
        return (Int(response.status.code), Data(buffer.readableBytesView))
    }

    /// Posts Apple's body for `signedPayload` (no token, as Apple does).
    func deliver(_ signedPayload: String, timeout: Duration = .seconds(30)) async throws -> (status: Int, body: Data) {
        try await request(.POST, "/v1/notifications", body: Data(#"{"signedPayload":"\#(signedPayload)"}"#.utf8), token: nil, timeout: timeout)
    }

    /// `GET /v1/notifications/{uuid}` as a JSON object, or nil when it is not stored (404).
    func notification(_ uuid: String) async throws -> [String: JSONValue]? {
        let (status, body) = try await request(.GET, "/v1/notifications/\(uuid)")
        if status == 404 { return nil }
        guard status == 200 else { throw ServiceTestError("GET /v1/notifications/\(uuid) answered \(status)") }
        return body.jsonObject
    }

    /// Polls until every notification in `uuids` left `received` (processed or failed); their API views.
    func waitUntilSettled(_ uuids: some Collection<String>, timeout: Duration = .seconds(30)) async throws -> [String: [String: JSONValue]] {
        let deadline = ContinuousClock.now + timeout
        var settled: [String: [String: JSONValue]] = [:]
        var pending = Array(uuids)
        while !pending.isEmpty {
            var still: [String] = []
            for uuid in pending {
                if let view = try await notification(uuid), let state = view["state"]?.stringValue, state != "received" {
                    settled[uuid] = view
                } else {
                    still.append(uuid)
                }
            }
            pending = still
            guard !pending.isEmpty else { break }
            guard ContinuousClock.now < deadline else {
                throw ServiceTestError("\(pending.count) notifications not processed within \(timeout), e.g. \(pending.prefix(3))")
            }
            try await Task.sleep(for: .milliseconds(200))
        }
        return settled
    }
}

extension ServiceProcess {
    /// Runs `body` with a starter for children; every child still running afterwards is killed.
    static func group<T: Sendable>(_ body: (ServiceProcessGroup) async throws -> T) async throws -> T {
        let group = ServiceProcessGroup()
        do {
            let result = try await body(group)
            await group.killAll()
            return result
        } catch {
            await group.killAll()
            throw error
        }
    }
}

/// The children started in one test.
final class ServiceProcessGroup: Sendable {
    private let children = Mutex<[ServiceProcess]>([])
    private let counter = Atomic<Int>(0)

    /// Starts `verdict serve` (see ``ServiceProcess/start(_:directory:name:timeout:)``); the log
    /// files get a fresh `name-N` in `directory`.
    func start(_ settings: [String: String], directory: URL, name: String = "serve") async throws -> ServiceProcess {
        let number = counter.add(1, ordering: .relaxed).newValue
        let child = try await ServiceProcess.start(settings, directory: directory, name: "\(name)-\(number)")
        children.withLock { $0.append(child) }
        return child
    }

    func killAll() async {
        for child in children.withLock({ $0 }) { _ = try? await child.kill() }
    }
}

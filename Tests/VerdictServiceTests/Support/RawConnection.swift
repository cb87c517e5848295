import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain TCP connection to 127.0.0.1 for tests of the HTTP edge: bytes written as given (a
/// request cut short, nothing at all), reads with a timeout, and whether the server closed.
final class RawConnection {
    private let fd: Int32

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw ServiceTestError("socket() failed: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(fd)
            throw ServiceTestError("connect() failed: errno \(errno)")
        }
    }

    deinit { close(fd) }

    func write(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Everything the server sends until it closes the connection or `timeout` passes; `closed`
    /// tells which. Waits by sleeping between non-blocking polls, never in `poll` itself: a blocked
    /// thread of the concurrency pool (two on a two-core machine) would stall every other test —
    /// and the service under test, whose handlers run on the same pool.
    func readUntilClosed(timeout: Duration) async -> (text: String, closed: Bool) {
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + timeout
        var buffer = [UInt8](repeating: 0, count: 4096)
        while ContinuousClock.now < deadline {
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 0) > 0 else {
                try? await Task.sleep(for: .milliseconds(10))
                continue
            }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { return (String(decoding: received, as: UTF8.self), true) }
            received += buffer[0..<count]
        }
        return (String(decoding: received, as: UTF8.self), false)
    }
}

extension RawConnection: @unchecked Sendable {}

extension RawConnection {
    /// `count` connections, opened on a thread of their own: `connect` blocks while the server's
    /// accept queue is full, and must not block a thread of the concurrency pool.
    static func open(count: Int, port: Int) async throws -> [RawConnection] {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                do {
                    continuation.resume(returning: try (0..<count).map { _ in try RawConnection(port: port) })
                } catch {
                    continuation.resume(throwing: error)
                }
            }.start()
        }
    }
}

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The process's peak resident memory, as Linux counts it (`VmHWM` in /proc/self/status).
enum PeakMemory {
    /// The peak resident set size in bytes; nil where /proc is not available.
    static var bytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }),
              let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        else { return nil }
        return kilobytes * 1024
    }

    /// Returns freed heap memory to the system and starts the peak over from the current
    /// resident size (`5` to /proc/self/clear_refs), so that a later phase is measured alone.
    /// Returns whether the peak could be reset.
    @discardableResult
    static func reset() -> Bool {
        #if canImport(Glibc)
        // glibc's malloc_trim (not in the Glibc module), looked up at run time.
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)(0)
        }
        #endif
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
    }

    /// `123 MB`, or `unknown`.
    static func describe(_ bytes: Int?) -> String {
        bytes.map { String(format: "%.0f MiB", Double($0) / 1_048_576) } ?? "unknown"
    }
}

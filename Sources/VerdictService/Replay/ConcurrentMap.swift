import Foundation

extension Array where Element: Sendable {
    /// `map(transform)` on up to `width` concurrent tasks, each transforming one contiguous slice;
    /// the results keep the elements' order. For CPU-bound work on batches (decoding stored
    /// records, generating them).
    func concurrentMap<T: Sendable>(
        width: Int = ProcessInfo.processInfo.activeProcessorCount, _ transform: @escaping @Sendable (Element) throws -> T
    ) async throws -> [T] {
        let slices = Swift.max(1, Swift.min(width, count / 16))
        guard slices > 1 else { return try map(transform) }
        let size = (count + slices - 1) / slices
        return try await withThrowingTaskGroup(of: (Int, [T]).self) { group in
            for slice in 0..<slices {
                let part = self[Swift.min(count, slice * size)..<Swift.min(count, (slice + 1) * size)]
                group.addTask { (slice, try part.map(transform)) }
            }
            var parts = [[T]](repeating: [], count: slices)
            for try await (slice, part) in group { parts[slice] = part }
            return Array<T>(parts.joined())
        }
    }
}

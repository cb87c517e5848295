/// A half-open range of positions in an expression's text, counted in Unicode scalars from 0.
///
/// The bundle layer maps it into the rule file: file column = the YAML scalar's column + `start`
/// (+1 for a quoted scalar). Columns in Yams' `Mark` are counted in Unicode scalars as well.
public struct SourceRange: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The first position (0-based).
    public var start: Int
    /// One past the last position; `end == start` for an empty range (e.g. end of input).
    public var end: Int

    public init(start: Int, end: Int) {
        self.start = start
        self.end = max(start, end)
    }

    /// The number of scalars covered.
    public var length: Int { end - start }

    /// The smallest range covering both.
    public func union(_ other: SourceRange) -> SourceRange {
        SourceRange(start: min(start, other.start), end: max(end, other.end))
    }

    /// The covered text of `source` (whose scalars the offsets count).
    public func text(in source: String) -> String {
        let scalars = source.unicodeScalars
        let lower = scalars.index(scalars.startIndex, offsetBy: min(start, scalars.count))
        let upper = scalars.index(scalars.startIndex, offsetBy: min(end, scalars.count))
        return String(scalars[lower..<upper])
    }

    public var description: String { "\(start)..<\(end)" }
}

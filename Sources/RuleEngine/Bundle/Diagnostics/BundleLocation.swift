/// A position inside a bundle file: 1-based line and column, columns counted in Unicode scalars
/// (as libyaml and Yams count them).
public struct BundleLocation: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The file's path as printed in diagnostics.
    public let file: String
    /// 1-based line.
    public let line: Int
    /// 1-based column in Unicode scalars.
    public let column: Int

    /// The position `line:column` of `file`.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// The same line, `count` scalars further right.
    public func advanced(by count: Int) -> BundleLocation {
        BundleLocation(file: file, line: line, column: column + count)
    }

    /// `file:line:column`.
    public var description: String { "\(file):\(line):\(column)" }
}

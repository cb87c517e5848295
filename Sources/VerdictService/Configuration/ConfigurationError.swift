/// A setting of `verdict serve` that is missing or invalid. Its description is the one line
/// start-up prints; it names the environment variable and never echoes a secret's value.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public let key: ConfigurationKey
    public let problem: String

    /// The exit status of a command stopped by a configuration error: 78, `EX_CONFIG` of sysexits(3).
    public static let exitStatus: Int32 = 78

    public init(_ key: ConfigurationKey, _ problem: String) {
        self.key = key
        self.problem = problem
    }

    /// One line, whatever the problem's text holds (line breaks become spaces).
    public var description: String {
        let line = "configuration error: \(key.environmentVariable) (\(key.flag)) \(problem)"
        return line.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}

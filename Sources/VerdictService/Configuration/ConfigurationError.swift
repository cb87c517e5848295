/// A setting of `verdict serve` that is missing or invalid. Its description is the one line
/// start-up prints; it names the environment variable and never echoes a secret's value.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public let key: ConfigurationKey
    public let problem: String

    public init(_ key: ConfigurationKey, _ problem: String) {
        self.key = key
        self.problem = problem
    }

    public var description: String {
        "configuration error: \(key.environmentVariable) (\(key.flag)) \(problem)"
    }
}

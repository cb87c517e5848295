/// A test's set-up went wrong (not what it tests): a missing server, a port that cannot be bound.
public struct TestSetupError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

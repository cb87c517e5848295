/// A service test's set-up or a step it waits for went wrong.
struct ServiceTestError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

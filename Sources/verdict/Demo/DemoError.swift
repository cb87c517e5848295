/// A step of the demo that did not go as it should; the text says which and why.
struct DemoError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}

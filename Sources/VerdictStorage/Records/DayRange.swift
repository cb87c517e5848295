/// Whole UTC days, both ends included, counted from 1970-01-01 (day 0); nil ends are open.
public struct DayRange: Sendable, Equatable {
    public var first: Int64?
    public var last: Int64?

    public init(first: Int64? = nil, last: Int64? = nil) {
        self.first = first
        self.last = last
    }

    /// Milliseconds in a day.
    public static let milliseconds: Int64 = 86_400_000

    /// The day holding UNIX-millisecond instant `milliseconds`.
    public static func day(of milliseconds: Int64) -> Int64 {
        milliseconds >= 0 ? milliseconds / Self.milliseconds : (milliseconds + 1) / Self.milliseconds - 1
    }
}

extension Duration {
    /// The duration in whole milliseconds (rounded down), the unit of the stored timestamps.
    var wholeMilliseconds: Int64 {
        components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
    }
}

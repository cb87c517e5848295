import AppStoreServer

extension FactData {
    /// The facts tree of a JSON document (such as ``FactRecord/json``), without encoding it to
    /// text and parsing it back. Numbers come out as a JSON round trip would: an integral number
    /// is an integer, any other a decimal (which facts refuse).
    public init(_ json: JSONValue) {
        switch json {
        case .null: self = .null
        case .bool(let value): self = .bool(value)
        case .integer(let value): self = .int(value)
        case .number(let value):
            if value.rounded() == value, let integer = Int64(exactly: value) {
                self = .int(integer)
            } else {
                self = .decimal(value)
            }
        case .string(let value): self = .string(value)
        case .array(let items): self = .list(items.map(FactData.init))
        case .object(let entries): self = .object(entries.mapValues(FactData.init))
        }
    }
}

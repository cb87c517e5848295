/// The seats an `UNCLAIM_SEATS` notification is about (`unclaimInfo`, at the top level of the
/// notification payload).
///
/// The seat ids are UUID strings, kept exactly as Apple wrote them (not parsed into `UUID`, which
/// would re-encode them upper-cased), so they compare equal to the ids Apple uses elsewhere. The
/// member decodes tolerantly (see `TolerantDecoding.swift`): a list that is not all strings is nil.
public struct UnclaimInfo: Codable, Hashable, Sendable {
    /// The identifiers of the seats that were unclaimed.
    public var unclaimSeatIds: [String]?

    public init(unclaimSeatIds: [String]? = nil) {
        self.unclaimSeatIds = unclaimSeatIds
    }

    enum CodingKeys: String, CodingKey {
        case unclaimSeatIds
    }

    public init(from decoder: any Decoder) throws {
        let container = decoder.tolerantContainer(keyedBy: CodingKeys.self)
        unclaimSeatIds = container?.tolerantValue([String].self, forKey: .unclaimSeatIds)
    }
}

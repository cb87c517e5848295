import AppStoreServer

/// The worked example of one multiseat billing period, as compact key-sorted JSON: (a) a purchase
/// of 8 seats (5 × 9.99 + 3 × 7.99 = 73.92), then (b) 4 seats added 13 days later
/// (2 × 7.99 + 2 × 5.99 = 27.96). The period: 12 seats for 101.88.
enum MultiSeatExample {
    /// How the members of a price tier are spelled: the prose's `price` / `quantity`, or the type
    /// names `tierPrice` / `tierQuantity`.
    enum Spelling: String, CaseIterable, Sendable {
        case prose, typeName
    }

    /// Where `revokedSeatQuantity` or `additionalTransactionReason` sits.
    enum Placement: String, CaseIterable, Sendable {
        case topLevel, insideMultiSeatInfo
    }

    static let purchaseTiers = [MultiSeatPriceTier(price: 9990, quantity: 5), MultiSeatPriceTier(price: 7990, quantity: 3)]
    static let additionTiers = [MultiSeatPriceTier(price: 7990, quantity: 2), MultiSeatPriceTier(price: 5990, quantity: 2)]

    /// One tier object.
    static func tier(_ price: Int64, _ quantity: Int32, _ spelling: Spelling = .prose) -> String {
        switch spelling {
        case .prose: #"{"price":\#(price),"quantity":\#(quantity)}"#
        case .typeName: #"{"tierPrice":\#(price),"tierQuantity":\#(quantity)}"#
        }
    }

    /// A JSON object of `members` (each a raw `"key":value` pair), sorted by key like the encoder.
    static func object(_ members: [String]) -> String {
        "{" + members.sorted().joined(separator: ",") + "}"
    }

    /// A transaction in USD whose `multiSeatInfo` holds `tiers` (raw JSON of the array's elements)
    /// and `inside`, with `topLevel` beside its other members.
    static func transaction(price: Int64, quantity: Int32, tiers: String, topLevel: [String] = [], inside: [String] = []) -> String {
        let seats = object([#""invitationManagement":"APPLE""#, #""priceTiers":[\#(tiers)]"#] + inside)
        return object([#""currency":"USD""#, #""multiSeatInfo":\#(seats)"#, #""price":\#(price)"#, #""quantity":\#(quantity)"#] + topLevel)
    }

    /// `member` in the list for `placement`: (top level, inside `multiSeatInfo`).
    static func placed(_ member: String?, at placement: Placement) -> (topLevel: [String], inside: [String]) {
        guard let member else { return ([], []) }
        return placement == .topLevel ? ([member], []) : ([], [member])
    }

    /// (a): 8 seats, average 9.24 per seat; `revokedSeats` at `placement` when given.
    static func purchase(_ spelling: Spelling = .prose, revokedSeats: Int32? = nil, at placement: Placement = .topLevel) -> String {
        let member = placed(revokedSeats.map { #""revokedSeatQuantity":\#($0)"# }, at: placement)
        return transaction(price: 9240, quantity: 8, tiers: tier(9990, 5, spelling) + "," + tier(7990, 3, spelling),
                           topLevel: member.topLevel, inside: member.inside)
    }

    /// (b): 4 seats added, average 6.99 per seat, `SEAT_ADDITION` at `placement`.
    static func seatAddition(_ spelling: Spelling = .prose, reasonAt placement: Placement = .topLevel) -> String {
        let member = placed(#""additionalTransactionReason":"SEAT_ADDITION""#, at: placement)
        return transaction(price: 6990, quantity: 4, tiers: tier(7990, 2, spelling) + "," + tier(5990, 2, spelling),
                           topLevel: member.topLevel, inside: member.inside)
    }

    static func decode(_ json: String) throws -> JWSTransactionDecodedPayload {
        try ModelFixture.decode(JWSTransactionDecodedPayload.self, json: json)
    }
}

/// `catalog.yaml`: the offers that exist in App Store Connect and the currencies the app sells in.
/// Rules may only name offers listed here, of the listed type, for the listed products; per-currency
/// constant tables must cover every listed currency.
///
/// ```yaml
/// currencies: [USD, EUR, GBP, JPY]
/// offers:
///   - id: promo-annual-50
///     type: PROMOTIONAL
///     productIds: [com.example.pro.annual]
///     subscriptionGroup: pro
/// products:            # optional: subscriptions no offer names (switch-plan answers)
///   - {id: com.example.pro.monthly, subscriptionGroup: pro}
/// ```
public struct OfferCatalog: Hashable, Sendable {
    /// One offer configured in App Store Connect.
    public struct Offer: Hashable, Sendable, Codable {
        /// The offer identifier as App Store Connect (and `eligibleWinBackOfferIds`) spell it.
        public let id: String
        /// `PROMOTIONAL` or `WIN_BACK`.
        public let type: String
        /// The products the offer applies to.
        public let productIds: [String]
        /// The subscription group identifier.
        public let subscriptionGroup: String
        /// How long a targeted offer stays pending (milliseconds); nil: the service's default.
        public var expiresAfter: Int64?
        /// Where it is declared.
        public let line: Int
    }

    /// The offers, in file order.
    public let offers: [Offer]
    /// ISO 4217 codes the app sells in.
    public let currencies: [String]
    /// The subscription group of every product the catalog knows: those of `products:` and those
    /// its offers name.
    public let productGroups: [String: String]
    private let byId: [String: Int]

    /// A catalog of `offers` selling in `currencies`; `products` adds products no offer names.
    public init(offers: [Offer], currencies: [String], products: [String: String] = [:]) {
        self.offers = offers
        self.currencies = currencies
        var byId: [String: Int] = [:]
        for (index, offer) in offers.enumerated() where byId[offer.id] == nil { byId[offer.id] = index }
        self.byId = byId
        var groups = products
        for offer in offers {
            for product in offer.productIds where groups[product] == nil { groups[product] = offer.subscriptionGroup }
        }
        self.productGroups = groups
    }

    /// The offer called `id`, if listed.
    public func offer(_ id: String) -> Offer? { byId[id].map { offers[$0] } }

    /// An empty catalog (a bundle without `catalog.yaml` can only have refund rules).
    public static let empty = OfferCatalog(offers: [], currencies: [])

    /// The keys of one `offers:` entry.
    static let offerKeys = ["id", "type", "productIds", "subscriptionGroup", "expiresAfter", "description"]

    static func read(_ root: YAMLNode, log: DiagnosticLog) -> OfferCatalog {
        let reader = NodeReader(log: log)
        guard let top = reader.mapping(root, "catalog.yaml", keys: ["currencies", "offers", "products"], required: ["offers"]) else {
            return .empty
        }
        var currencies: [String] = []
        if let node = top["currencies"], let codes = reader.texts(node, "currencies") {
            for (code, codeNode) in codes {
                if !Money.isCurrencyCode(code) {
                    log.error("'\(code)' is not an ISO 4217 currency code (three capital letters)", at: codeNode)
                } else if currencies.contains(code) {
                    log.error("currency \(code) is listed twice", at: codeNode)
                } else {
                    currencies.append(code)
                }
            }
        }
        var offers: [Offer] = []
        let keys = Self.offerKeys
        for item in top["offers"].flatMap({ reader.list($0, "offers") }) ?? [] {
            guard let map = reader.mapping(item, "a catalog offer", keys: keys, required: ["id", "type", "productIds", "subscriptionGroup"]),
                let idNode = map["id"], let id = reader.text(idNode, "an offer id"),
                let typeNode = map["type"], let type = reader.choice(typeNode, "offer type", among: RuleSectionReader.offerTypes),
                let productsNode = map["productIds"], let products = reader.texts(productsNode, "productIds"),
                let groupNode = map["subscriptionGroup"], let group = reader.text(groupNode, "subscriptionGroup")
            else { continue }
            if offers.contains(where: { $0.id == id }) {
                log.error("offer id '\(id)' is listed twice", at: idNode)
                continue
            }
            if products.isEmpty { log.error("offer \(id) lists no productIds", at: productsNode) }
            var offer = Offer(id: id, type: type, productIds: products.map(\.0), subscriptionGroup: group, line: idNode.location.line)
            if let node = map["expiresAfter"] { offer.expiresAfter = reader.duration(node, "expiresAfter") }
            offers.append(offer)
        }
        var products: [String: String] = [:]
        for item in top["products"].flatMap({ reader.list($0, "products") }) ?? [] {
            guard let map = reader.mapping(item, "a catalog product", keys: ["id", "subscriptionGroup", "description"], required: ["id", "subscriptionGroup"]),
                let idNode = map["id"], let id = reader.text(idNode, "a product id"),
                let groupNode = map["subscriptionGroup"], let group = reader.text(groupNode, "subscriptionGroup")
            else { continue }
            if products[id] != nil { log.error("product '\(id)' is listed twice", at: idNode) }
            for offer in offers where offer.productIds.contains(id) && offer.subscriptionGroup != group {
                log.error("product \(id) is in group \(group) here, but offer \(offer.id) puts it in \(offer.subscriptionGroup)", at: groupNode)
            }
            products[id] = group
        }
        return OfferCatalog(offers: offers, currencies: currencies, products: products)
    }
}

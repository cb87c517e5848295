import RuleEngine

extension SyntheticFacts {
    /// Customers of the shipped bundle's app, "Lumen": the products, group and win-back offers of
    /// Rules/catalog.yaml, with histories of `historyLength` transactions (at most, for
    /// ``document(customer:signedDate:event:)``).
    static func lumen(historyLength: Int) -> SyntheticFacts {
        SyntheticFacts(
            historyLength: historyLength, monthlyProductId: "com.lumen.pro.monthly", annualProductId: "com.lumen.pro.annual",
            consumableProductId: "com.lumen.credits.100", subscriptionGroup: "21482345",
            winBackOfferIds: ["lumen-winback-monthly-2free", "lumen-winback-monthly-50off"])
    }
}

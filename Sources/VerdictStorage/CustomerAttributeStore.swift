/// The attributes an app backend sets for its customers (by `appAccountToken`), which rules read.
/// Part of ``VerdictRepository``: every method is one database transaction.
///
/// Scoped to the repository's app: attributes are keyed by app and `appAccountToken`, so the same
/// token in two apps (a studio reusing its user UUID) holds two independent attribute sets.
public protocol CustomerAttributeStore: Sendable {
    /// Replaces the attributes of the customer with `appAccountToken`.
    func setCustomerAttributes(_ record: CustomerAttributesRecord) async throws
    /// The attributes set for `appAccountToken`, if any.
    func customerAttributes(appAccountToken: String) async throws -> CustomerAttributesRecord?
}

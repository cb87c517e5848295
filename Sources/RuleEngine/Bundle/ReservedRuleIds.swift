/// Rule and veto ids no bundle may use: the ids of what blocks decisions without being in a rule
/// file, which decisions, rule tests (`blockedBy`), the console and statistics name exactly like a
/// bundle's own vetoes — so a bundle veto of the same name would be mistaken for them.
public enum ReservedRuleIds {
    /// The service's guard on a refund request about a group member's `ASSIGNED` transaction,
    /// which Apple lets nobody answer (the request is recorded, nothing is sent).
    public static let assignedTransaction = "assigned-transaction"

    /// What each reserved id names, for the checker's error.
    static let meanings: [String: String] = [
        AssignedMemberVeto.id: "the built-in veto of offers to group members",
        assignedTransaction: "the built-in guard on refund requests about a group member's transaction",
    ]
}

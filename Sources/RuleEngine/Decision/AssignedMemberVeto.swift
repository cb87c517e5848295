/// The built-in veto `assigned-member`: by default, no offer for a member of a group subscription.
///
/// A member of an Apple-hosted group (`subscription.ownership == ASSIGNED`) holds a subscription
/// that the group's purchaser bought and manages: the member can neither redeem an offer for it
/// nor switch its plan. So when the rule that decides would make such a member an offer (an offer,
/// or on the cancel page an answer with an offer or another plan), the decision is blocked instead
/// (``Decision/blockedBy`` is this veto) — unless that rule's own conditions read
/// `subscription.ownership`, directly or through a segment: a rule that asks who holds the
/// subscription has decided about members itself. A shadow rule is screened the same way (its
/// match is not recorded). It applies to the offers and retention sections, never to refunds; a
/// customer whose ownership the facts do not give counts as the purchaser.
enum AssignedMemberVeto {
    /// The veto's id in decisions, tests (`blockedBy: assigned-member`) and statistics; no rule or
    /// veto of a bundle may use it.
    static let id = "assigned-member"
    /// The veto as a decision records it: built in, so in no file.
    static let reference = RuleReference(id: id, file: "", line: 0)
    /// The fact whose reading exempts a rule.
    static let ownershipPath = "subscription.ownership"
    /// The ordinal of `ASSIGNED`.
    static let assigned = RuleEnum.inAppOwnershipType.ordinal(named: "ASSIGNED")

    /// Whether `reference` is this veto.
    static func isVeto(_ reference: RuleReference) -> Bool { reference.id == id && reference.file.isEmpty }

    /// The trace note of a rule the veto blocked.
    static let note = "built-in veto \(id): the customer is a member of a group subscription (subscription.ownership is "
        + "ASSIGNED), who cannot act on an offer, and this rule does not read subscription.ownership"

    /// The explanation of a decision it blocked.
    static let explanation = "blocked by the built-in veto \(id): the customer is a member of a group subscription "
        + "(subscription.ownership is ASSIGNED), who cannot act on an offer; a rule that reads subscription.ownership "
        + "decides about members itself"
}

extension ChoosingRule {
    /// Whether the rule's conditions read `subscription.ownership` (directly or through a
    /// segment), which exempts it from ``AssignedMemberVeto``.
    var readsOwnership: Bool { conditions.read(AssignedMemberVeto.ownershipPath) }
}

extension Sequence<CompiledCondition> {
    /// Whether any of the conditions reads the fact at `path` (or a part of it), directly or
    /// through a segment.
    func read(_ path: String) -> Bool { contains { $0.expression.reads(path) } }
}

extension DecisionEvaluator {
    /// Whether the facts say the customer is a group member (`subscription.ownership` is
    /// `ASSIGNED`); false when they do not say.
    func isAssignedMember() -> Bool {
        guard let probe = bundle.probes.subscriptionOwnership,
              case .value(.enumeration(let ordinal)) = probe.evaluate(context)
        else { return false }
        return ordinal == AssignedMemberVeto.assigned
    }
}

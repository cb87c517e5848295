@testable import RuleEngine
import Testing

/// Which rules moved when their order changed: those outside some longest common subsequence of
/// the two orders. A swap moves both rules; an insertion or removal moves none; one rule taken
/// elsewhere moves only that rule.
@Suite("Replay diff: which rules moved")
struct PriorityMovesTests {
    @Test("moved entries", arguments: [
        (["a", "b"], ["b", "a"], ["a", "b"]),
        (["a", "b", "c", "d"], ["a", "c", "b", "d"], ["b", "c"]),
        (["a", "b", "c", "d"], ["b", "c", "d", "a"], ["a"]),
        (["a", "b", "c", "d"], ["d", "a", "b", "c"], ["d"]),
        (["a", "b", "c"], ["new", "a", "b", "c"], []),
        (["a", "b", "c"], ["a", "c"], []),
        (["a", "b", "c"], ["new", "c", "b", "a"], ["a", "b", "c"]),
        (["a", "b", "c", "d"], ["b", "a", "d", "c"], ["a", "b", "c", "d"]),
        (["a", "b", "c", "d", "e"], ["a", "d", "c", "b", "e"], ["b", "c", "d"]),
        (["a"], ["a"], []),
        ([], ["a"], []),
    ])
    func moved(old: [String], new: [String], expected: [String]) {
        #expect(PriorityMoves.moved(from: old, to: new) == Set(expected))
    }
}

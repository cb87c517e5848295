/// Which entries of an ordered list (rules, whose order is their priority; vetoes) moved between
/// two versions of it.
///
/// Only the entries both versions have are compared, so an entry added or removed moves nothing
/// by itself. Among those, the largest set of entries that kept their relative order is a longest
/// common subsequence of the two orders; an entry that is in every such set stayed put, and an
/// entry left out of at least one of them moved. A rule taken from the top to the bottom is the
/// only one outside the one longest subsequence, so only it moved. When two rules swap places,
/// either could be the one kept, so both moved; three rules reversed all moved.
enum PriorityMoves {
    /// The entries of `new` that moved relative to `old` (ids are unique within each list).
    static func moved(from old: [String], to new: [String]) -> Set<String> {
        var oldIndex: [String: Int] = [:]
        for (index, id) in old.enumerated() where oldIndex[id] == nil { oldIndex[id] = index }
        let common = new.filter { oldIndex[$0] != nil }
        // The order both versions keep is an increasing run of these old positions, in new order.
        let ranks = common.map { oldIndex[$0] ?? 0 }
        let count = ranks.count
        guard count > 1 else { return [] }
        var ending = Array(repeating: 1, count: count)
        for i in 0..<count {
            for j in 0..<i where ranks[j] < ranks[i] { ending[i] = max(ending[i], ending[j] + 1) }
        }
        var starting = Array(repeating: 1, count: count)
        for i in stride(from: count - 1, through: 0, by: -1) {
            for j in (i + 1)..<count where ranks[j] > ranks[i] { starting[i] = max(starting[i], starting[j] + 1) }
        }
        let longest = ending.max() ?? 0
        // Every longest run takes exactly one entry of each length it reaches; an entry on some
        // longest run is on all of them when no other entry on a longest run has its length.
        var onLongestByLength: [Int: [Int]] = [:]
        for i in 0..<count where ending[i] + starting[i] - 1 == longest {
            onLongestByLength[ending[i], default: []].append(i)
        }
        let kept = Set(onLongestByLength.values.filter { $0.count == 1 }.map { common[$0[0]] })
        return Set(common).subtracting(kept)
    }
}

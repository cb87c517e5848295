import Synchronization
import Testing

@testable import VerdictService

/// The realtime deadline: the answer comes at the deadline at the latest, and a late operation
/// still runs to its end (what it stores stays consistent) and is reported.
@Suite struct FirstToFinishTests {
    @Test func aFastOperationAnswersItsValue() async {
        let value = await FirstToFinish.run(deadline: .seconds(5), operation: { 42 })
        #expect(value == 42)
    }

    @Test func aSlowOperationAnswersNilAtTheDeadlineAndFinishesLate() async throws {
        let late = Mutex<Int?>(nil)
        let value = await FirstToFinish.run(
            deadline: .milliseconds(50),
            operation: { () async -> Int in
                try? await Task.sleep(for: .seconds(3))
                return 7
            },
            late: { value in late.withLock { $0 = value } })
        #expect(value == nil)
        #expect(late.withLock { $0 } == nil, "answered at the deadline, before the operation ended")
        let until = ContinuousClock.now + .seconds(20)
        while late.withLock({ $0 }) == nil, ContinuousClock.now < until { try await Task.sleep(for: .milliseconds(20)) }
        #expect(late.withLock { $0 } == 7, "the late operation was not cancelled and reported its value")
    }
}

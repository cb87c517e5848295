@testable import RuleEngine
import Testing

@Suite("Expression durations, timestamps and now")
struct TimeExpressionTests {
    typealias T = ExpressionTestSupport

    @Test("now is the event's signedDate unless the context sets it")
    func now() throws {
        #expect(try T.value("now == timestamp('2026-12-15T12:00:00Z')") == .bool(true))
        let result = try T.evaluate("now == date('2027-01-01')", now: "2027-01-01T00:00:00Z")
        #expect(result == .value(.bool(true)))
        let noEvent = try T.evaluate("since(subscription.recentSubscriptionStartDate) > days(1)", facts: "subscription: {recentSubscriptionStartDate: 2026-01-01}")
        #expect(noEvent.error?.message == "now is unknown: the facts have no event.signedDate")
    }

    @Test("refund windows relative to now", arguments: [
        ("customer.refunds.exists(r, r.date > now - days(30))", true),
        ("customer.refunds.exists(r, r.date > now - days(10))", false),
        ("customer.refunds.exists(r, since(r.date) <= duration('14d12h'))", true),
        ("since(subscription.recentSubscriptionStartDate) >= days(400)", true),
    ])
    func windows(source: String, expected: Bool) throws {
        #expect(try T.value(source) == .bool(expected))
    }

    @Test("timestamps parse exactly", arguments: [
        ("1970-01-01", Int64(0)), ("1970-01-02T00:00:00Z", 86_400_000), ("2026-12-15T12:00:00Z", 1_797_336_000_000),
        ("2026-12-15T13:00:00+01:00", 1_797_336_000_000), ("2026-12-15T11:30:00-00:30", 1_797_336_000_000),
        ("2026-12-15T12:00:00.5Z", 1_797_336_000_500), ("2026-12-15 12:00:00.123456Z", 1_797_336_000_123),
        ("2024-02-29", 1_709_164_800_000), ("1969-12-31T23:59:59Z", -1_000),
    ])
    func timestamps(text: String, millis: Int64) {
        #expect(RuleTime.parseTimestamp(text) == millis)
    }

    @Test("malformed timestamps are rejected", arguments: [
        "2026-13-01", "2026-02-29", "2026-1-01", "2026-12-15T25:00:00Z", "2026-12-15T12:00:00", "2026-12-15T12:00Z",
        "2026-12-15T12:00:00+0100", "2026-12-15Z", "", "tomorrow",
    ])
    func badTimestamps(text: String) {
        #expect(RuleTime.parseTimestamp(text) == nil)
    }

    @Test("timestamps render in UTC")
    func renderTimestamps() {
        #expect(RuleTime.renderTimestamp(1_797_336_000_000) == "2026-12-15T12:00:00Z")
        #expect(RuleTime.renderTimestamp(1_797_336_000_250) == "2026-12-15T12:00:00.250Z")
        #expect(RuleTime.renderTimestamp(-1_000) == "1969-12-31T23:59:59Z")
    }

    @Test("durations parse and render", arguments: [
        ("400d", Int64(400) * RuleTime.day, "400d"), ("36h", 36 * RuleTime.hour, "1d12h"), ("90m", 90 * RuleTime.minute, "1h30m"),
        ("30s", 30_000, "30s"), ("250ms", 250, "250ms"), ("1d12h", 36 * RuleTime.hour, "1d12h"), ("-2h", -2 * RuleTime.hour, "-2h"),
        ("0s", 0, "0s"),
    ])
    func durations(text: String, millis: Int64, rendered: String) {
        #expect(RuleTime.parseDuration(text) == millis)
        #expect(RuleTime.renderDuration(millis) == rendered)
    }

    @Test("malformed durations are rejected", arguments: ["", "d", "10", "10y", "1.5h", "10 d", "-", "99999999999999999999d"])
    func badDurations(text: String) {
        #expect(RuleTime.parseDuration(text) == nil)
    }
}
